// Which failures to load the SQLite engine or its native binding are the driver's (an install problem, exit 17 with a
// hint), said in one line; every other failure is thrown as it was, so that a real bug still reads as one.
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteDriverError, sqliteDriverError } from '../../src/archive/archive-errors.js';
import { loadSqliteEngine } from '../../src/archive/open-archive.js';
import { describeError } from '../../src/runtime/error-reports.js';
import { tempDir } from '../helpers/temp-dir.js';

const DRIVER_EXIT = 17;
const HINT_END = ', or reinstall recall-feed; a PostgreSQL --db needs no driver';

/** The error better-sqlite3 gets when no compiled binding is found: the real `bindings` package, over a folder of ours. */
function bindingsNotFound(moduleRoot: string): Error {
  // better-sqlite3's own dependency, found from where it is installed.
  const driver = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  const bindings = createRequire(driver)('bindings') as (opts: object) => unknown;
  try {
    bindings({ bindings: 'better_sqlite3.node', module_root: moduleRoot });
  } catch (err) {
    return err as Error;
  }
  throw new Error('bindings found a binding in an empty folder');
}

/** An error as Node makes it: its message, and the code. */
const nodeError = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('sqliteDriverError', () => {
  it("the `bindings` package's list of every path tried: one line, and the folder to rebuild in", () => {
    const install = path.join(tempDir('rf-driver-'), 'app ü');
    const found = sqliteDriverError('a.db', bindingsNotFound(path.join(install, 'node_modules', 'better-sqlite3')));
    expect(found).toBeInstanceOf(SqliteDriverError);
    expect(found?.message).toBe(
      'the SQLite driver (better-sqlite3) could not be loaded: Could not locate the bindings file',
    );
    expect(found?.installFolder).toBe(install);
    const report = describeError(found);
    expect(report.code).toBe(DRIVER_EXIT);
    expect(report.message).toBe(found?.message);
    expect(report.hints).toEqual([
      `an install problem, not a bug (a Node.js upgraded since the install, a node_modules from another machine): run \`cd '${install}' && npm rebuild better-sqlite3\`${HINT_END}`,
    ]);
  });

  it('a binding built for another Node.js: the two ABI versions, not the first of five lines', () => {
    const file = '/opt/rf/lib/node_modules/recall-feed/node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    // Node's own text (src/node_binding.cc), with its line breaks.
    const abi = nodeError(
      `The module '${file}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
      'ERR_DLOPEN_FAILED',
    );
    const found = sqliteDriverError('a.db', abi);
    expect(found?.message).toBe(
      `the SQLite driver (better-sqlite3) could not be loaded: it was built for another Node.js (NODE_MODULE_VERSION 127; Node.js ${process.versions.node} needs 115)`,
    );
    expect(found?.installFolder).toBe('/opt/rf/lib/node_modules/recall-feed');
  });

  it("a binding for another libc or machine: the dynamic loader's one line", () => {
    const file = '/srv/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    const glibc = nodeError(
      `/lib/x86_64-linux-gnu/libc.so.6: version \`GLIBC_2.38' not found (required by ${file})`,
      'ERR_DLOPEN_FAILED',
    );
    const found = sqliteDriverError('a.db', glibc);
    expect(found?.message).toBe(`the SQLite driver (better-sqlite3) could not be loaded: ${glibc.message}`);
    expect(found?.installFolder).toBe('/srv/app');
    const report = describeError(found);
    expect(report.code).toBe(DRIVER_EXIT);
    expect(report.hints[0]).toContain('run `cd /srv/app && npm rebuild better-sqlite3`, or reinstall');
  });

  it('anything else is no driver failure: SQLite errors, a missing module of ours, a bug', () => {
    for (const err of [
      nodeError('unable to open database file', 'SQLITE_CANTOPEN'),
      nodeError(
        "Cannot find module '/app/dist/cli/chunks/store-AB12CD.js' imported from /app/dist/cli/main.js",
        'ERR_MODULE_NOT_FOUND',
      ),
      nodeError("Cannot find package 'better-sqlite3-helper' imported from /app/x.js", 'ERR_MODULE_NOT_FOUND'),
      new TypeError("Cannot read properties of undefined (reading 'prepare')"),
      new Error('Expected first argument to be a string'),
      'a string thrown',
    ])
      expect(sqliteDriverError('a.db', err), String(err)).toBeUndefined();
  });
});

describe('a module the driver requires, missing', () => {
  it("bindings' own dependency gone (file-uri-to-path): the driver's failure, not a bug of ours", () => {
    const err = Object.assign(
      nodeError(
        "Cannot find module 'file-uri-to-path'\nRequire stack:\n- /opt/rf/node_modules/bindings/bindings.js",
        'MODULE_NOT_FOUND',
      ),
      {
        requireStack: [
          '/opt/rf/node_modules/bindings/bindings.js',
          '/opt/rf/node_modules/better-sqlite3/lib/database.js',
        ],
      },
    );
    expect(sqliteDriverError('a.db', err)).toBeInstanceOf(SqliteDriverError);
    expect(describeError(sqliteDriverError('a.db', err)).code).toBe(DRIVER_EXIT);
  });

  it('a module missing for a package that is not the driver stays a bug', () => {
    const err = Object.assign(nodeError("Cannot find module 'left-pad'", 'MODULE_NOT_FOUND'), {
      requireStack: ['/opt/rf/node_modules/better-sqlite3-helper/index.js'],
    });
    expect(sqliteDriverError('a.db', err)).toBeUndefined();
  });
});

describe('loadSqliteEngine', () => {
  it('better-sqlite3 missing from node_modules: a SqliteDriverError (exit 17) with the generic hint', async () => {
    const missing = nodeError(
      "Cannot find package 'better-sqlite3' imported from /app/dist/cli/chunks/store-AB12CD.js",
      'ERR_MODULE_NOT_FOUND',
    );
    const err = await loadSqliteEngine('arch.db', () => Promise.reject(missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqliteDriverError);
    expect((err as SqliteDriverError).file).toBe('arch.db');
    const report = describeError(err);
    expect(report).toEqual({
      code: DRIVER_EXIT,
      message: `the SQLite driver (better-sqlite3) could not be loaded: ${missing.message}`,
      hints: [
        `an install problem, not a bug (a Node.js upgraded since the install, a node_modules from another machine): run \`npm rebuild better-sqlite3\` in the folder recall-feed is installed in${HINT_END}`,
      ],
    });
  });

  it('another failure of the import is thrown as it was', async () => {
    const bug = new SyntaxError('Unexpected token');
    await expect(loadSqliteEngine('arch.db', () => Promise.reject(bug))).rejects.toBe(bug);
  });

  it('by default, the engine itself', async () => {
    const engine = await loadSqliteEngine('arch.db');
    expect(typeof engine.SqliteStore.open).toBe('function');
  });
});
