// The config store: file and directory modes, profiles, unset/list, unwritable and corrupt files.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigReadError, ConfigStore, ConfigWriteError, defaultConfigDir } from '../../src/cli/config/store.js';
import { ConfigValueError } from '../../src/cli/config/config-keys.js';
import { tempDir } from '../helpers/temp-dir.js';

let tmp: string;
beforeEach(() => {
  tmp = tempDir('recall-feed-config-');
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const KEY = 'rf_live_0123456789abcdef';

describe('ConfigStore', () => {
  it('creates its directory 0700 and the file 0600, in the documented shape', () => {
    const dir = path.join(tmp, 'nested', 'recall-feed');
    const store = ConfigStore.open({ dir });
    expect(store.path).toBe(path.join(dir, 'config.json'));
    expect(fs.existsSync(store.path)).toBe(false); // opening alone writes nothing
    store.set('default', 'api-key', KEY);
    store.set('default', 'base-url', 'https://api.example.test');
    store.set('default', 'format', 'csv');
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8'))).toEqual({
      profiles: { default: { 'api-key': KEY, 'base-url': 'https://api.example.test', format: 'csv' } },
    });
  });

  it('tightens a 0644 file to 0600 on the next write, and leaves an existing directory alone', () => {
    fs.chmodSync(tmp, 0o755);
    fs.writeFileSync(path.join(tmp, 'config.json'), '{"profiles":{}}', { mode: 0o644 });
    fs.chmodSync(path.join(tmp, 'config.json'), 0o644);
    const store = ConfigStore.open({ dir: tmp });
    store.set('default', 'retries', 3);
    expect(mode(store.path)).toBe(0o600);
    expect(mode(tmp)).toBe(0o755);
  });

  it('keeps profiles apart', () => {
    const store = ConfigStore.open({ dir: tmp });
    store.set('default', 'format', 'csv');
    store.set('prod', 'format', 'jsonl');
    store.set('prod', 'page-size', 500);
    expect(store.get('default', 'format')).toBe('csv');
    expect(store.get('prod', 'format')).toBe('jsonl');
    expect(store.get('default', 'page-size')).toBeUndefined();
    expect(store.get('nope', 'format')).toBeUndefined();
    expect(store.profiles()).toEqual(['default', 'prod']);
    // A second store on the same file sees the same data.
    expect(ConfigStore.open({ dir: tmp }).list('prod')).toEqual({ format: 'jsonl', 'page-size': 500 });
  });

  it('lists a profile with numbers as numbers; an unknown profile lists empty', () => {
    const store = ConfigStore.open({ dir: tmp });
    store.set('default', 'api-key', KEY);
    store.set('default', 'timeout', 2.5);
    expect(store.list('default')).toEqual({ 'api-key': KEY, timeout: 2.5 });
    expect(store.list('other')).toEqual({});
    expect(store.list('constructor')).toEqual({});
    expect(store.get('default', 'constructor')).toBeUndefined();
  });

  it('unsets a key, drops a profile left empty, and reports whether anything was removed', () => {
    const store = ConfigStore.open({ dir: tmp });
    store.set('default', 'format', 'csv');
    store.set('default', 'retries', 2);
    store.set('prod', 'format', 'json');
    expect(store.unset('default', 'format')).toBe(true);
    expect(store.unset('default', 'format')).toBe(false);
    expect(store.list('default')).toEqual({ retries: 2 });
    expect(store.unset('prod', 'format')).toBe(true);
    expect(store.profiles()).toEqual(['default']);
    expect(store.unset('ghost', 'format')).toBe(false);
  });

  it('rejects profile names that are not plain names', () => {
    const store = ConfigStore.open({ dir: tmp });
    for (const name of ['', '__proto__', 'a b', '../x', 'x'.repeat(65)]) {
      expect(() => store.set(name, 'format', 'csv')).toThrow(ConfigValueError);
    }
    expect(fs.existsSync(store.path)).toBe(false);
    store.set('work.eu-1', 'format', 'csv');
    expect(store.get('work.eu-1', 'format')).toBe('csv');
  });

  it('reads as empty and refuses writes with ConfigWriteError when the directory cannot be created', () => {
    // A regular file where a parent directory should be: mkdir fails with ENOTDIR even for root.
    fs.writeFileSync(path.join(tmp, 'file'), '');
    const dir = path.join(tmp, 'file', 'recall-feed');
    const store = ConfigStore.open({ dir });
    expect(store.list('default')).toEqual({});
    expect(store.get('default', 'api-key')).toBeUndefined();
    expect(store.profiles()).toEqual([]);
    expect(store.unwritableReason).toMatch(/ENOTDIR/);
    let error: unknown;
    try {
      store.set('default', 'format', 'csv');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigWriteError);
    expect((error as ConfigWriteError).message).toBe(
      `cannot write the config file ${path.join(dir, 'config.json')}: a parent of it is not a directory (ENOTDIR)`,
    );
    expect((error as ConfigWriteError).hint).toMatch(/RECALL_FEED_CONFIG_DIR/);
  });

  // As root, chmod does not stop writes, so these two cannot fail as they should: skipped, with the reason
  // in their names. The ENOTDIR case above covers the same code path for every user.
  const isRoot = process.getuid?.() === 0;
  const rootNote = isRoot ? ' [skipped: running as root, where chmod 0500 does not stop writes]' : '';
  it.skipIf(isRoot)(
    `handles a read-only HOME (chmod 0500): reads empty, writes throw ConfigWriteError${rootNote}`,
    () => {
      const home = path.join(tmp, 'home');
      fs.mkdirSync(home);
      fs.chmodSync(home, 0o500);
      const store = ConfigStore.open({ dir: path.join(home, '.config', 'recall-feed') });
      expect(store.list('default')).toEqual({});
      expect(() => store.set('default', 'format', 'csv')).toThrow(ConfigWriteError);
      expect(() => store.set('default', 'format', 'csv')).toThrow(/permission denied \(EACCES\)/);
      fs.chmodSync(home, 0o700);
    },
  );

  it.skipIf(isRoot)(`reads an existing file in a read-only directory; writes throw ConfigWriteError${rootNote}`, () => {
    fs.writeFileSync(path.join(tmp, 'config.json'), JSON.stringify({ profiles: { default: { format: 'csv' } } }));
    fs.chmodSync(tmp, 0o500);
    const store = ConfigStore.open({ dir: tmp });
    expect(store.get('default', 'format')).toBe('csv');
    expect(() => store.set('default', 'format', 'json')).toThrow(ConfigWriteError);
  });

  it.each([
    ['not JSON', '{"profiles": {"default": {"api-key": "rf_live_0123456789abcdef"', /not valid JSON/],
    ['an array', '[1, 2]', /does not hold a JSON object/],
    ['profiles of the wrong shape', '{"profiles": {"default": "x"}}', /"profiles" is not an object/],
  ])('a corrupt file (%s) gives ConfigReadError and is left untouched', (_name, content, reason) => {
    const file = path.join(tmp, 'config.json');
    fs.writeFileSync(file, content, { mode: 0o600 });
    let error: unknown;
    try {
      ConfigStore.open({ dir: tmp });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigReadError);
    expect((error as ConfigReadError).message).toMatch(
      new RegExp(`^cannot read the config file ${file.replace(/[/.]/g, '\\$&')}: `),
    );
    expect((error as ConfigReadError).message).toMatch(reason);
    expect((error as ConfigReadError).hint).toMatch(/left untouched/);
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('a file corrupted after opening gives ConfigReadError on the next write, never a reset; reads keep what open() read', () => {
    const store = ConfigStore.open({ dir: tmp });
    store.set('default', 'api-key', KEY);
    const broken = fs.readFileSync(store.path, 'utf8').slice(0, -3);
    fs.writeFileSync(store.path, broken);
    expect(store.get('default', 'api-key')).toBe(KEY);
    expect(() => ConfigStore.open({ dir: tmp })).toThrow(ConfigReadError);
    expect(() => store.set('default', 'format', 'csv')).toThrow(ConfigReadError);
    expect(() => store.unset('default', 'api-key')).toThrow(ConfigReadError);
    expect(fs.readFileSync(store.path, 'utf8')).toBe(broken);
  });

  it('keeps other top-level data in the file', () => {
    const file = path.join(tmp, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ note: 'mine', profiles: { default: { format: 'csv' } } }));
    ConfigStore.open({ dir: tmp }).set('default', 'retries', 1);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      note: 'mine',
      profiles: { default: { format: 'csv', retries: 1 } },
    });
  });
});

describe('defaultConfigDir', () => {
  it('follows conf (env-paths without suffix) on each platform', () => {
    expect(defaultConfigDir({}, 'linux', '/home/u')).toBe('/home/u/.config/recall-feed');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/recall-feed');
    expect(defaultConfigDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Preferences/recall-feed');
    expect(defaultConfigDir({ APPDATA: '/appdata' }, 'win32', '/u')).toBe(
      path.join('/appdata', 'recall-feed', 'Config'),
    );
  });
});
