// Loads the CommonJS front bundle (dist/cli/front.cjs) with the V8 code cache the build wrote beside it.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** The last line of front.cjs, written by the build: the bundle's content hash, which the cache names too. */
const BUILD_ID = /\/\/# recall-feed-build ([0-9a-f]+)\n?$/;

/**
 * The cache file: `<build id> <payload bytes>\n`, then V8's payload twice. A release build of V8 does not
 * check its payload's checksum, and a damaged one crashes the process: the copies must agree byte for byte.
 * (A hash would need node:crypto or node:zlib, whose loading alone costs 2 to 4 ms, a tenth of a Node start;
 * comparing two copies is a memcmp.)
 */
function cachePath(file) {
  return `${file}.v8cache`;
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
  const [id, length] = bytes.subarray(0, Math.max(end, 0)).toString('latin1').split(' ');
  const built = BUILD_ID.exec(source.slice(-80));
  const size = Number(length);
  if (end < 0 || !built || id !== built[1] || !(size > 0) || bytes.length !== end + 1 + 2 * size) return undefined;
  const payload = bytes.subarray(end + 1, end + 1 + size);
  return payload.equals(bytes.subarray(end + 1 + size)) ? payload : undefined;
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
  // Written whole under another name first: a build cut short leaves no half-written cache behind.
  const temporary = `${cachePath(file)}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${built[1]} ${payload.length}\n`), payload, payload]));
  fs.renameSync(temporary, cachePath(file));
}

module.exports = { loadWithCodeCache, writeCodeCache, BUILD_ID };
