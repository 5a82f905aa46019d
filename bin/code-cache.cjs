// Loads the CommonJS front bundle (dist/cli/front.cjs) with the V8 code cache the build wrote beside it.
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** The last line of front.cjs, written by the build: the bundle's content hash, which the cache names too. */
const BUILD_ID = /\/\/# recall-feed-build ([0-9a-f]+)\n?$/;

/**
 * The cache file: `<build id> <payload bytes> <payload sha-1>\n`, then V8's payload. The checksum is ours:
 * a release build of V8 does not check its own, and a damaged payload crashes the process.
 */
function cachePath(file) {
  return `${file}.v8cache`;
}

/** The payload's checksum (about half a millisecond for the front's cache, node:crypto included). */
function checksum(payload) {
  return createHash('sha1').update(payload).digest('hex');
}

/** The cached code, if the cache exists, is for this very bundle and is whole and intact; else undefined. */
function readCache(file, source) {
  let bytes;
  try {
    bytes = fs.readFileSync(cachePath(file));
  } catch {
    return undefined; // no cache: a normal compile
  }
  const end = bytes.indexOf(10);
  const [id, length, sum] = bytes.subarray(0, Math.max(end, 0)).toString('latin1').split(' ');
  const built = BUILD_ID.exec(source.slice(-80));
  if (end < 0 || !built || id !== built[1] || Number(length) !== bytes.length - end - 1) return undefined;
  const payload = bytes.subarray(end + 1);
  return checksum(payload) === sum ? payload : undefined;
}

/**
 * Compiles and runs a CommonJS bundle as Node's loader would (same wrapper and arguments), handing V8 the
 * cached code when it is valid. V8 refuses a cache from another V8 version or other flags: then, as with no
 * cache, the bundle is compiled from its source. Returns the bundle's exports and the compiled script.
 */
function loadWithCodeCache(file) {
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: readCache(file, source) });
  const mod = { exports: {} };
  const requireFromBundle = Module.createRequire(file);
  script.runInThisContext().call(mod.exports, mod.exports, requireFromBundle, mod, file, path.dirname(file));
  return { exports: mod.exports, script };
}

/** Writes the cache of what `script` has compiled so far (run it first, so the functions it used are in it). */
function writeCodeCache(file, script) {
  const built = BUILD_ID.exec(fs.readFileSync(file, 'utf8').slice(-80));
  if (!built) throw new Error(`${file} has no build id line`);
  const payload = script.createCachedData();
  fs.writeFileSync(
    cachePath(file),
    Buffer.concat([Buffer.from(`${built[1]} ${payload.length} ${checksum(payload)}\n`), payload]),
  );
}

module.exports = { loadWithCodeCache, writeCodeCache, BUILD_ID };
