// The monitor URL and the case deadline are checked once, by the settings table's parsers: `config set`, the flag,
// the environment and the profile refuse the same values, each with its own message.
import { describe, expect, it } from 'vitest';
import { caseSla } from '../../src/jobs/matching/sla.js';
import { setting } from '../../src/runtime/settings-table.js';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const SLA_HINT =
  'hint: e.g. 2wd (two working days, Monday to Friday), 24h or 3d, counted from the recall’s published_at\n';

/** `config set <key> <value>` in a config folder of its own: exit code and stderr. */
async function configSet(key: string, value: string) {
  const r = await runMain(['config', 'set', key, value], { env: { RECALL_FEED_CONFIG_DIR: tempDir('rf-one-check-') } });
  return { code: r.code, stderr: r.stderr };
}

describe('case-sla and --sla', () => {
  // Deadlines without a calendar (--sla takes its country from --calendar).
  const accepted = ['2wd', '24H', ' 3d ', '1h', '9999d'];
  const refused = ['0wd', '2 weeks', '10000h', 'wd', '1.5d', '2w', '2d:FR', '24h:fr', ''];

  it('config set case-sla and match --sla refuse the same values, each in its words', async () => {
    const expected = `expected ${setting('case-sla').values}`;
    for (const value of refused) {
      const set = await configSet('case-sla', value);
      expect([set.code, set.stderr], value).toEqual([2, `error: invalid value "${value}" for case-sla: ${expected}\n`]);
      const flag = await runMain(['match', '--catalog', 'no-such.csv', '--archive', '--open-cases', '--sla', value]);
      expect([flag.code, flag.stderr], value).toEqual([2, `error: --sla ${value}: not a deadline\n${SLA_HINT}`]);
    }
    for (const value of accepted) {
      expect((await configSet('case-sla', value)).code, value).toBe(0);
      // Past the deadline's check: the catalogue is what is missing.
      const flag = await runMain(['match', '--catalog', 'no-such.csv', '--archive', '--open-cases', '--sla', value]);
      expect(flag.stderr, value).toBe('error: cannot read the catalogue no-such.csv: no such file\n');
    }
  });

  it('the profile’s case-sla is checked by the same parser when a run uses it', async () => {
    await expect(caseSla(undefined, '2 weeks')).rejects.toThrow('the case-sla setting 2 weeks: not a deadline');
    await expect(caseSla(undefined, '24h:FR')).rejects.toThrow('the case-sla setting 24h:FR: not a deadline');
    expect((await caseSla(undefined, ' 3D '))?.text).toBe('3d');
    expect(await caseSla(undefined, '2wd:fr')).toEqual({ amount: 2, unit: 'wd', calendar: 'FR', text: '2wd:FR' });
  });
});

describe('monitor and --monitor', () => {
  const refused: [string, string][] = [
    [
      'ftp://hc.example.com/x',
      'error: --monitor must be an https URL\nhint: e.g. --monitor https://hc-ping.com/<uuid>\n',
    ],
    ['not a url', 'error: --monitor must be an https URL\nhint: e.g. --monitor https://hc-ping.com/<uuid>\n'],
    [
      'https://u:p@hc.example.com/x',
      'error: --monitor must not carry user:password@\nhint: the ping URL itself carries the token\n',
    ],
    ['http://hc.example.com/x', 'error: refusing to ping a plain http monitor on hc.example.com\nhint: use https\n'],
  ];

  it('config set monitor and feed --monitor (or RECALL_FEED_MONITOR) refuse the same values before any ping', async () => {
    const expected = `error: invalid value for monitor: expected ${setting('monitor').values}\n`;
    for (const [value, message] of refused) {
      expect(await configSet('monitor', value), value).toEqual({ code: 2, stderr: expected });
      const flag = await runMain(['--base-url', 'http://127.0.0.1:9', 'feed', '--monitor', value]);
      expect([flag.code, flag.stderr], value).toEqual([2, message]);
      const env = await runMain(['--base-url', 'http://127.0.0.1:9', 'feed'], { env: { RECALL_FEED_MONITOR: value } });
      expect([env.code, env.stderr], value).toEqual([2, message.replace('--monitor must', 'the monitor setting must')]);
    }
    for (const value of ['https://hc-ping.com/abc', 'http://127.0.0.1:8/ping', 'http://[::1]:8/x']) {
      expect((await configSet('monitor', value)).code, value).toBe(0);
    }
  });
});

describe('the log format read before commander', () => {
  it('takes the variable, default and parser of the table’s log-format row', async () => {
    const { logFormatOf } = await import('../../src/runtime/terminal/json-log.js');
    const row = setting('log-format');
    const variable = row.env?.[0] as string;
    expect(logFormatOf([], {})).toBe(row.default);
    expect(logFormatOf([], { [variable]: ' Json ' })).toBe('json');
    // An empty or unknown value stays text: commander refuses a bad flag, and the variable is only read here.
    expect(logFormatOf([], { [variable]: '' })).toBe('text');
    expect(logFormatOf([], { [variable]: 'yaml' })).toBe('text');
    expect(logFormatOf(['--log-format', 'text'], { [variable]: 'json' })).toBe('text');
    expect(logFormatOf(['--log-format'], { [variable]: 'json' })).toBe('json');
  });
});
