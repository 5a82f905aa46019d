// The config store: file and directory modes, profiles, unset/list, unwritable and corrupt files.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigReadError, ConfigStore, ConfigWriteError, defaultConfigDir } from '../../src/runtime/config/store.js';
import { ConfigValueError } from '../../src/runtime/config/config-keys.js';
import { tempDir } from '../helpers/temp-dir.js';

let tmp: string;
beforeEach(() => {
  tmp = tempDir('recall-feed-config-');
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const KEY = 'rf_live_0123456789abcdef';

describe('ConfigStore', () => {
  it('creates its directory 0700 and the file 0600, in the documented shape', async () => {
    const dir = path.join(tmp, 'nested', 'recall-feed');
    const store = await ConfigStore.open({ dir });
    expect(store.path).toBe(path.join(dir, 'config.json'));
    // Opening and reading alone create nothing, not even the folder.
    expect(store.list('default')).toEqual({});
    expect(fs.existsSync(path.join(tmp, 'nested'))).toBe(false);
    await store.set('default', 'api-key', KEY);
    await store.set('default', 'base-url', 'https://api.example.test');
    await store.set('default', 'format', 'csv');
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8'))).toEqual({
      profiles: { default: { 'api-key': KEY, 'base-url': 'https://api.example.test', format: 'csv' } },
    });
  });

  it('tightens a 0644 file to 0600 on the next write, and leaves an existing directory alone', async () => {
    fs.chmodSync(tmp, 0o755);
    fs.writeFileSync(path.join(tmp, 'config.json'), '{"profiles":{}}', { mode: 0o644 });
    fs.chmodSync(path.join(tmp, 'config.json'), 0o644);
    const store = await ConfigStore.open({ dir: tmp });
    await store.set('default', 'retries', 3);
    expect(mode(store.path)).toBe(0o600);
    expect(mode(tmp)).toBe(0o755);
  });

  it('keeps profiles apart', async () => {
    const store = await ConfigStore.open({ dir: tmp });
    await store.set('default', 'format', 'csv');
    await store.set('prod', 'format', 'jsonl');
    await store.set('prod', 'page-size', 500);
    expect(store.get('default', 'format')).toBe('csv');
    expect(store.get('prod', 'format')).toBe('jsonl');
    expect(store.get('default', 'page-size')).toBeUndefined();
    expect(store.get('nope', 'format')).toBeUndefined();
    expect(store.profiles()).toEqual(['default', 'prod']);
    // A second store on the same file sees the same data.
    expect((await ConfigStore.open({ dir: tmp })).list('prod')).toEqual({ format: 'jsonl', 'page-size': 500 });
  });

  it('lists a profile with numbers as numbers; an unknown profile lists empty', async () => {
    const store = await ConfigStore.open({ dir: tmp });
    await store.set('default', 'api-key', KEY);
    await store.set('default', 'timeout', 2.5);
    expect(store.list('default')).toEqual({ 'api-key': KEY, timeout: 2.5 });
    expect(store.list('other')).toEqual({});
    expect(store.list('constructor')).toEqual({});
    expect(store.get('default', 'constructor')).toBeUndefined();
  });

  it('unsets a key, drops a profile left empty, and reports whether anything was removed', async () => {
    const store = await ConfigStore.open({ dir: tmp });
    await store.set('default', 'format', 'csv');
    await store.set('default', 'retries', 2);
    await store.set('prod', 'format', 'json');
    expect(await store.unset('default', 'format')).toBe(true);
    expect(await store.unset('default', 'format')).toBe(false);
    expect(store.list('default')).toEqual({ retries: 2 });
    expect(await store.unset('prod', 'format')).toBe(true);
    expect(store.profiles()).toEqual(['default']);
    expect(await store.unset('ghost', 'format')).toBe(false);
  });

  it('rejects profile names that are not plain names', async () => {
    const store = await ConfigStore.open({ dir: tmp });
    for (const name of ['', '__proto__', 'a b', '../x', 'x'.repeat(65)]) {
      await expect(store.set(name, 'format', 'csv')).rejects.toThrow(ConfigValueError);
    }
    expect(fs.existsSync(store.path)).toBe(false);
    await store.set('work.eu-1', 'format', 'csv');
    expect(store.get('work.eu-1', 'format')).toBe('csv');
  });

  it('reads as empty and refuses writes with ConfigWriteError when the directory cannot be created', async () => {
    // A regular file where a parent directory should be: mkdir fails with ENOTDIR even for root.
    fs.writeFileSync(path.join(tmp, 'file'), '');
    const dir = path.join(tmp, 'file', 'recall-feed');
    const store = await ConfigStore.open({ dir });
    expect(store.list('default')).toEqual({});
    expect(store.get('default', 'api-key')).toBeUndefined();
    expect(store.profiles()).toEqual([]);
    const error = await store.set('default', 'format', 'csv').catch((err: unknown) => err);
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
    async () => {
      const home = path.join(tmp, 'home');
      fs.mkdirSync(home);
      fs.chmodSync(home, 0o500);
      const store = await ConfigStore.open({ dir: path.join(home, '.config', 'recall-feed') });
      expect(store.list('default')).toEqual({});
      await expect(store.set('default', 'format', 'csv')).rejects.toThrow(ConfigWriteError);
      await expect(store.set('default', 'format', 'csv')).rejects.toThrow(/permission denied \(EACCES\)/);
      expect(fs.readdirSync(home)).toEqual([]);
      fs.chmodSync(home, 0o700);
    },
  );

  it.skipIf(isRoot)(
    `reads an existing file in a read-only directory; writes throw ConfigWriteError${rootNote}`,
    async () => {
      fs.writeFileSync(path.join(tmp, 'config.json'), JSON.stringify({ profiles: { default: { format: 'csv' } } }));
      fs.chmodSync(tmp, 0o500);
      const store = await ConfigStore.open({ dir: tmp });
      expect(store.get('default', 'format')).toBe('csv');
      await expect(store.set('default', 'format', 'json')).rejects.toThrow(ConfigWriteError);
    },
  );

  it.each([
    ['not JSON', '{"profiles": {"default": {"api-key": "rf_live_0123456789abcdef"', /not valid JSON/],
    ['an array', '[1, 2]', /does not hold a JSON object/],
    ['profiles of the wrong shape', '{"profiles": {"default": "x"}}', /"profiles" is not an object/],
    [
      'a value that is not a string or a number',
      '{"profiles": {"default": {"retries": true}}}',
      /"profiles.default.retries" is not a string or a number/,
    ],
  ])('a corrupt file (%s) gives ConfigReadError and is left untouched', async (_name, content, reason) => {
    const file = path.join(tmp, 'config.json');
    fs.writeFileSync(file, content, { mode: 0o600 });
    const error = await ConfigStore.open({ dir: tmp }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConfigReadError);
    expect((error as ConfigReadError).message).toMatch(
      new RegExp(`^cannot read the config file ${file.replace(/[/.]/g, '\\$&')}: `),
    );
    expect((error as ConfigReadError).message).toMatch(reason);
    expect((error as ConfigReadError).hint).toMatch(/left untouched/);
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('a file corrupted after opening gives ConfigReadError on the next write, never a reset; reads keep what open() read', async () => {
    const store = await ConfigStore.open({ dir: tmp });
    await store.set('default', 'api-key', KEY);
    const broken = fs.readFileSync(store.path, 'utf8').slice(0, -3);
    fs.writeFileSync(store.path, broken);
    expect(store.get('default', 'api-key')).toBe(KEY);
    await expect(ConfigStore.open({ dir: tmp })).rejects.toThrow(ConfigReadError);
    await expect(store.set('default', 'format', 'csv')).rejects.toThrow(ConfigReadError);
    await expect(store.unset('default', 'api-key')).rejects.toThrow(ConfigReadError);
    expect(fs.readFileSync(store.path, 'utf8')).toBe(broken);
  });

  it('keeps other top-level data in the file', async () => {
    const file = path.join(tmp, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ note: 'mine', profiles: { default: { format: 'csv' } } }));
    await (await ConfigStore.open({ dir: tmp })).set('default', 'retries', 1);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      note: 'mine',
      profiles: { default: { format: 'csv', retries: 1 } },
    });
  });
});

describe('ConfigStore permissions (warned as ssh does, fixed on the next write)', () => {
  const open = async () => {
    const warnings: string[] = [];
    const store = await ConfigStore.open({ dir: tmp, warn: (m) => warnings.push(m) });
    return { store, warnings };
  };
  const file = () => path.join(tmp, 'config.json');

  it('warns of a 0644 file holding a secret, and makes it 0600 on the next write', async () => {
    fs.chmodSync(tmp, 0o700);
    fs.writeFileSync(file(), JSON.stringify({ profiles: { default: { 'api-key': KEY } } }));
    fs.chmodSync(file(), 0o644);
    const { store, warnings } = await open();
    expect(warnings).toEqual([
      `the config file ${file()} holds a secret and is readable by others (0644); it is made 0600 on the next write, or run: chmod 600 '${file()}'`,
    ]);
    await store.set('default', 'retries', 2);
    expect(mode(file())).toBe(0o600);
    expect((await open()).warnings).toEqual([]);
  });

  it('says nothing of a 0644 file without a secret', async () => {
    fs.chmodSync(tmp, 0o755);
    fs.writeFileSync(file(), JSON.stringify({ profiles: { default: { format: 'csv' } } }));
    fs.chmodSync(file(), 0o644);
    expect((await open()).warnings).toEqual([]);
  });

  it('warns of a 0777 folder, and makes it 0700 on the next write', async () => {
    fs.writeFileSync(file(), JSON.stringify({ profiles: {} }), { mode: 0o600 });
    fs.chmodSync(tmp, 0o777);
    const { store, warnings } = await open();
    expect(warnings).toEqual([
      `the config folder ${tmp} is writable by others (0777); it is made 0700 on the next write, or run: chmod 700 '${tmp}'`,
    ]);
    await store.set('default', 'format', 'csv');
    expect(mode(tmp)).toBe(0o700);
  });
});

describe('ConfigStore writes (conf, atomically)', () => {
  it('two stores in one process writing in turn keep both changes, and leave no temporary file', async () => {
    const first = await ConfigStore.open({ dir: tmp });
    const second = await ConfigStore.open({ dir: tmp });
    await Promise.all([first.set('default', 'format', 'csv'), second.set('default', 'retries', 2)]);
    await Promise.all([first.set('prod', 'format', 'json'), second.set('prod', 'retries', 4)]);
    expect(fs.readdirSync(tmp)).toEqual(['config.json']);
    expect(JSON.parse(fs.readFileSync(first.path, 'utf8'))).toEqual({
      profiles: { default: { format: 'csv', retries: 2 }, prod: { format: 'json', retries: 4 } },
    });
  });

  it('keeps the file format of earlier versions: tab-indented JSON, read back as it is', async () => {
    const text = '{\n\t"profiles": {\n\t\t"default": {\n\t\t\t"format": "csv"\n\t\t}\n\t}\n}';
    fs.writeFileSync(path.join(tmp, 'config.json'), text, { mode: 0o600 });
    const store = await ConfigStore.open({ dir: tmp });
    expect(store.get('default', 'format')).toBe('csv');
    await store.set('default', 'format', 'json');
    expect(fs.readFileSync(store.path, 'utf8')).toBe(text.replace('csv', 'json'));
  });
});

describe('defaultConfigDir', () => {
  it('follows conf (env-paths without suffix) on each platform', async () => {
    expect(defaultConfigDir({}, 'linux', '/home/u')).toBe('/home/u/.config/recall-feed');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/recall-feed');
    expect(defaultConfigDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Preferences/recall-feed');
    expect(defaultConfigDir({ APPDATA: '/appdata' }, 'win32', '/u')).toBe(
      path.join('/appdata', 'recall-feed', 'Config'),
    );
  });
});
