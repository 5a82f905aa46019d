// Case deadlines: an --sla (`2wd`, `24h`, `3d`) read, and a case's due time from its recall's published_at.
import { utcMs } from '../../output/api-time.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { parseCaseSla, parseDeadline } from '../../runtime/settings-parsers.js';
import { setting } from '../../runtime/settings-table.js';

export interface Sla {
  amount: number;
  unit: 'wd' | 'h' | 'd';
  /** ISO 3166 country whose public holidays are not working days (--calendar); wd only. */
  calendar: string | undefined;
  /** As stored in the case: `2wd`, `2wd:FR`, `24h`. */
  text: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** An Sla from a deadline the settings table's parser normalized: `2wd`, `2wd:FR`, `24h`. */
function slaOf(text: string): Sla {
  const [rule, calendar] = text.split(':') as [string, string | undefined];
  const unit = rule.replace(/^\d+/, '') as Sla['unit'];
  return { amount: Number.parseInt(rule, 10), unit, calendar, text };
}

/**
 * `2wd` (working days, Monday to Friday), `24h` (hours), `3d` (calendar days), checked by the settings table's
 * case-sla parser (without its `:<country>`: --calendar names the country); with --calendar for holidays.
 */
export function parseSla(raw: string | undefined, calendar: string | undefined, flag = '--sla'): Sla | undefined {
  if (raw === undefined) {
    if (calendar !== undefined)
      throw new UsageError('--calendar works with --sla <n>wd', 'example: --sla 2wd --calendar FR');
    return undefined;
  }
  const sla = slaOf(parseDeadline(raw, flag, false));
  if (calendar === undefined) return sla;
  if (sla.unit !== 'wd') throw new UsageError('--calendar counts working days: use it with --sla <n>wd');
  const country = calendar.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw unknownCalendar(calendar);
  return slaOf(`${sla.text}:${country}`);
}

/** The refusal of a --calendar with no public holidays known, whether its form or date-holidays says so. */
function unknownCalendar(calendar: string): UsageError {
  return new UsageError(
    `--calendar ${calendar}: no public holidays known for that country`,
    'a two-letter country code, e.g. FR, DE, GB, US',
  );
}

/** A holiday as date-holidays gives it: `date` its day in the country's zone, `end` exclusive. */
interface Holiday {
  date: string;
  end: Date;
  type: string;
}

type HolidaysCtor = new (
  country: string,
) => { getHolidays(year: number): Holiday[]; getCountries(): Record<string, string>; getTimezones(): string[] };

let HolidaysClass: HolidaysCtor | undefined;

/** date-holidays, loaded once; `loadCalendars` must have run (its data is large, so only a --calendar loads it). */
async function loadCalendars(): Promise<void> {
  if (HolidaysClass) return;
  const mod = (await import('date-holidays')) as unknown as { default: HolidaysCtor };
  HolidaysClass = mod.default;
}

/** Whether date-holidays knows the public holidays of `country` (its data loaded now, if it was not). */
async function knownCalendar(country: string): Promise<boolean> {
  await loadCalendars();
  return HolidaysClass !== undefined && country in new HolidaysClass('FR').getCountries();
}

/** Loads the calendar an --sla needs, and refuses a country it has no holidays for (before anything is written). */
export async function prepareSla(sla: Sla | undefined): Promise<void> {
  if (sla?.calendar === undefined) return;
  if (!(await knownCalendar(sla.calendar))) throw unknownCalendar(sla.calendar);
}

/**
 * The country a case-sla value (as the settings table's parser normalized it: `2wd:ZZ`) names for its calendar when
 * no public holidays are known for it; undefined when it names none or a known one. The table's parser checks only
 * the form: `config set case-sla` and doctor ask this too, so that no run after them finds out.
 */
export async function unknownCaseSlaCalendar(value: string): Promise<string | undefined> {
  const { calendar } = slaOf(value);
  return calendar === undefined || (await knownCalendar(calendar)) ? undefined : calendar;
}

/** How to mend a stored case-sla: the command, and the forms it takes. */
export function caseSlaHint(): string {
  return `fix it with \`recall-feed config set case-sla ...\`: ${setting('case-sla').values}`;
}

/** The refusal of a stored case-sla, in the setting's words: its value and why. */
export function caseSlaRefusal(source: string, value: string, why: string): UsageError {
  return new UsageError(`${source} ${value}: ${why}`, caseSlaHint());
}

const holidayCache = new Map<string, Set<string>>();

/** The calendar day (YYYY-MM-DD) after `day`. */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/**
 * The days a holiday covers, as YYYY-MM-DD in its country's zone: from its own date (date-holidays starts some on
 * the evening before, at sunset, and dates them the next day) to the day its end (exclusive) falls in.
 */
function holidayDays(holiday: Holiday, dayIn: Intl.DateTimeFormat): string[] {
  const parts = dayIn.formatToParts(new Date(holiday.end.getTime() - 1));
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  const last = `${part('year')}-${part('month')}-${part('day')}`;
  const days = [holiday.date.slice(0, 10)];
  for (let day = nextDay(days[0] as string); day <= last; day = nextDay(day)) days.push(day);
  return days;
}

/**
 * The days of `year` (and around it) that public holidays of `country` cover, as YYYY-MM-DD: every day of a holiday
 * of several days, including one dated the year before that runs into this one.
 */
function holidays(country: string, year: number): Set<string> {
  const key = `${country}:${year}`;
  let days = holidayCache.get(key);
  if (!days) {
    if (!HolidaysClass) throw new Error('loadCalendars() first');
    const calendar = new HolidaysClass(country);
    // date-holidays gives start and end in the country's first zone (the machine's when it names none).
    const dayIn = new Intl.DateTimeFormat('en-US', {
      timeZone: calendar.getTimezones()?.[0],
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    days = new Set(
      [year - 1, year, year + 1]
        .flatMap((y) => calendar.getHolidays(y))
        .filter((h) => h.type === 'public')
        .flatMap((h) => holidayDays(h, dayIn)),
    );
    holidayCache.set(key, days);
  }
  return days;
}

function workingDay(day: Date, calendar: string | undefined): boolean {
  const weekday = day.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return calendar === undefined || !holidays(calendar, day.getUTCFullYear()).has(day.toISOString().slice(0, 10));
}

/**
 * The due time of a case on a recall published at `publishedAt`: hours and days added as such; working days
 * counted one by one after the day of publication (Monday to Friday in UTC, less the calendar's public holidays),
 * at the same time of day. Undefined when the recall has no readable published_at.
 */
export function dueAt(sla: Sla, publishedAt: unknown): string | undefined {
  const start = utcMs(publishedAt);
  if (!Number.isFinite(start)) return undefined;
  if (sla.unit === 'h') return new Date(start + sla.amount * HOUR_MS).toISOString();
  if (sla.unit === 'd') return new Date(start + sla.amount * DAY_MS).toISOString();
  let at = start;
  for (let counted = 0; counted < sla.amount; ) {
    at += DAY_MS;
    if (workingDay(new Date(at), sla.calendar)) counted++;
  }
  return new Date(at).toISOString();
}

const SETTING = 'the case-sla setting';

/** The deadline of a run's cases: --sla, else the profile's case-sla; its calendar loaded and checked. */
export async function caseSla(flag: Sla | undefined, stored: string | undefined): Promise<Sla | undefined> {
  if (flag !== undefined || stored === undefined) {
    await prepareSla(flag);
    return flag;
  }
  // The setting may name its calendar (`2wd:FR`): its form checked by the table's parser, as `config set` checks it.
  const sla = slaOf(parseCaseSla(stored, SETTING));
  // Stored before `config set` asked date-holidays, or edited by hand: named as the setting, not as --calendar.
  if (sla.calendar !== undefined && !(await knownCalendar(sla.calendar)))
    throw caseSlaRefusal(SETTING, sla.text, `no public holidays known for ${sla.calendar}`);
  return sla;
}
