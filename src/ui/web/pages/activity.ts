// Owns the Activity page: sessions, messages, tool calls, tokens and cost per day, week or month (uPlot bar
// charts with labelled axes and the value under the pointer), per project and per agent (bar tables), and a
// calendar heat map of messages per day with month and weekday names.
import uPlot from 'uplot';
import type { Activity, ActivityCounts } from '../../../core/browse/activity.js';
import { getJson } from '../api.js';
import { fill, formatNumber, h } from '../dom.js';
import { setParams, type Route } from '../route.js';

type Metric = Exclude<keyof ActivityCounts, 'key'>;
const METRICS: [Metric, string][] = [
  ['sessions', 'Sessions'],
  ['messages', 'Messages'],
  ['toolCalls', 'Tool calls'],
  ['tokens', 'Tokens'],
  ['cost', 'Estimated cost (USD)'],
];
const usd = (n: number) => (n >= 100 ? `$${Math.round(n).toLocaleString('en-US')}` : `$${n.toFixed(2)}`);
const DAY = 86_400;

const dayStart = (key: string) => Date.parse(key + 'T00:00:00Z') / 1000;

type Unit = 'day' | 'week' | 'month';

/** The first second of the day, week (from Monday) or month holding `t`. */
function bucketOf(t: number, unit: Unit): number {
  const d = new Date(t * 1000);
  if (unit === 'day') return t;
  if (unit === 'week') return t - ((d.getUTCDay() + 6) % 7) * DAY;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
}

/**
 * Every day, week or month from the first to the last, zeros filled in, as uPlot's columns: days up to four
 * months, then weeks up to two years, then months, so that no bar is thinner than a few pixels.
 */
function series(days: ActivityCounts[]): [Unit, number[], Record<Metric, number[]>] {
  const ys: Record<Metric, number[]> = {
    sessions: [],
    messages: [],
    toolCalls: [],
    tokens: [],
    cost: [],
    unpricedTokens: [],
  };
  if (days.length === 0) return ['day', [], ys];
  const first = dayStart(days[0]!.key);
  const last = dayStart(days[days.length - 1]!.key);
  const span = (last - first) / DAY;
  const unit: Unit = span <= 122 ? 'day' : span <= 730 ? 'week' : 'month';
  const sums = new Map<number, ActivityCounts>();
  for (const d of days) {
    const at = bucketOf(dayStart(d.key), unit);
    const sum = sums.get(at) ?? { ...d, key: '', sessions: 0, messages: 0, toolCalls: 0, tokens: 0, cost: 0 };
    for (const [m] of METRICS) sum[m] += d[m];
    sums.set(at, sum);
  }
  const xs: number[] = [];
  for (let t = bucketOf(first, unit); t <= last; ) {
    xs.push(t);
    for (const [m] of METRICS) ys[m].push(sums.get(t)?.[m] ?? 0);
    const d = new Date(t * 1000);
    t =
      unit === 'month'
        ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000
        : t + (unit === 'week' ? 7 : 1) * DAY;
  }
  return [unit, xs, ys];
}

const monthDay = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);

function chart(target: HTMLElement, label: string, unit: Unit, xs: number[], ys: number[], money = false): void {
  const width = Math.max(280, (target.clientWidth || 560) - 32);
  // Axis text follows the theme's muted colour, which has 4.5:1 contrast in light and dark.
  const axis = getComputedStyle(document.documentElement).getPropertyValue('--muted').trim() || '#596174';
  const value = (v: number | null) => (v === null ? '' : money ? usd(v) : formatNumber(v));
  const opts: uPlot.Options = {
    width,
    height: 200,
    // The legend under the chart shows the bar under the pointer: its ${unit} and value.
    legend: { show: true, live: true },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: { x: { time: true } },
    axes: [
      { stroke: axis, label: unit === 'day' ? 'day' : `${unit} starting`, labelSize: 20 },
      { stroke: axis, size: 64, label, labelSize: 20, values: (_u, vals) => vals.map((v) => value(v)) },
    ],
    series: [
      {
        label: unit,
        value: (_u, t) => (t === null ? '' : unit === 'month' ? monthDay(t).slice(0, 7) : monthDay(t)),
      },
      {
        label,
        stroke: '#3b6fd8',
        fill: 'rgba(59,111,216,0.35)',
        width: 1,
        value: (_u, v) => value(v),
        paths: uPlot.paths.bars!({ size: [0.8, 24] }),
        points: { show: false },
      },
    ],
  };
  new uPlot(opts, [xs, ys], target);
}

function barTable(title: string, rows: ActivityCounts[]): HTMLElement {
  const shown = rows.slice(0, 15);
  const max = Math.max(1, ...shown.map((r) => r.messages));
  return h(
    'section',
    { class: 'panel' },
    h('h2', {}, title),
    h(
      'table',
      { class: 'grid bars' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, h('span', { class: 'visually-hidden' }, title.replace(/^Per /, ''))),
          h('th', { class: 'num' }, 'sessions'),
          h('th', {}, 'messages'),
          h('th', { class: 'num' }, 'tool calls'),
          h('th', { class: 'num' }, 'tokens'),
          h('th', { class: 'num', title: 'at list prices, models with a known price' }, 'est. cost'),
        ),
      ),
      h(
        'tbody',
        {},
        shown.map((r) =>
          h(
            'tr',
            {},
            h('td', { class: 'key', title: r.key }, r.key),
            h('td', { class: 'num' }, formatNumber(r.sessions)),
            h(
              'td',
              {},
              h('div', { class: 'bar', style: `width:${Math.max(1, (r.messages / max) * 100).toFixed(1)}%` }),
              h('span', { class: 'bar-n' }, formatNumber(r.messages)),
            ),
            h('td', { class: 'num' }, formatNumber(r.toolCalls)),
            h('td', { class: 'num' }, formatNumber(r.tokens)),
            h('td', { class: 'num' }, r.cost > 0 ? usd(r.cost) : '—'),
          ),
        ),
      ),
    ),
    rows.length > shown.length ? h('p', { class: 'muted' }, `and ${rows.length - shown.length} more`) : null,
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * A GitHub-style calendar of the last year: one column per week (Sunday on top), one cell per day shaded by
 * messages that day, month names over the week each month starts in, and Mon, Wed, Fri down the side.
 */
function heatMap(days: ActivityCounts[]): HTMLElement {
  const wrap = h('section', { class: 'panel' }, h('h2', {}, 'Messages per day'));
  if (days.length === 0) return wrap;
  const byKey = new Map(days.map((d) => [d.key, d.messages]));
  const last = dayStart(days[days.length - 1]!.key);
  const first = Math.max(dayStart(days[0]!.key), last - 370 * DAY);
  const start = first - new Date(first * 1000).getUTCDay() * DAY;
  const max = Math.max(1, ...days.map((d) => d.messages));
  const weeks = Math.floor((last - start) / DAY / 7) + 1;
  const grid = h('div', {
    class: 'heat',
    role: 'img',
    'aria-label': `messages per day from ${monthDay(first)} to ${monthDay(last)}, most ${formatNumber(max)}`,
    style: `grid-template-columns: 2.4em repeat(${weeks}, 12px)`,
  });
  for (const day of [1, 3, 5])
    grid.append(h('span', { class: 'heat-day', style: `grid-area: ${day + 2} / 1` }, WEEKDAYS[day]!));
  for (let t = start; t <= last; t += DAY) {
    const date = new Date(t * 1000);
    const key = monthDay(t);
    const week = Math.floor((t - start) / DAY / 7);
    const n = t < first ? 0 : (byKey.get(key) ?? 0);
    const level = n === 0 ? 0 : Math.min(4, 1 + Math.floor((Math.log(n) / Math.log(max + 1)) * 4));
    // A month is named over the column of its first day (the first column too, unless its month ends soon).
    if (date.getUTCDate() === 1 || (t === start && date.getUTCDate() < 22))
      grid.append(
        h(
          'span',
          { class: 'heat-month', style: `grid-area: 1 / ${week + 2} / 2 / span 4` },
          MONTHS[date.getUTCMonth()]!,
        ),
      );
    grid.append(
      h('div', {
        class: `cell l${level}`,
        title: `${key}: ${n} messages`,
        style: `grid-area: ${date.getUTCDay() + 2} / ${week + 2}`,
      }),
    );
  }
  wrap.append(
    grid,
    h(
      'div',
      { class: 'heat-legend muted' },
      'less ',
      [0, 1, 2, 3, 4].map((l) => h('span', { class: `cell l${l}` })),
      ' more',
    ),
  );
  return wrap;
}

export async function activityPage(root: HTMLElement, route: Route): Promise<void> {
  const since = route.params.get('since') ?? '';
  const select = h(
    'select',
    { name: 'since', 'aria-label': 'time' },
    [
      ['', 'all time'],
      ['30d', 'last 30 days'],
      ['90d', 'last 90 days'],
      ['365d', 'last year'],
    ].map(([v, l]) => h('option', { value: v!, selected: v === since }, l!)),
  );
  const body = h('div', {});
  fill(root, h('h1', {}, 'Activity'), h('form', { class: 'filters' }, select), body);
  const load = async () => {
    setParams('activity', { since: select.value });
    const a = await getJson<Activity>('activity', { since: select.value });
    const [unit, xs, ys] = series(a.byDay);
    const charts = h('div', { class: 'charts' });
    fill(
      body,
      h(
        'div',
        { class: 'cards' },
        METRICS.map(([m, label]) =>
          h(
            'div',
            { class: 'card' },
            h('div', { class: 'value' }, m === 'cost' ? usd(a.totals.cost) : formatNumber(a.totals[m])),
            h('div', { class: 'label' }, label.toLowerCase()),
          ),
        ),
      ),
      a.totals.unpricedTokens > 0
        ? h(
            'p',
            { class: 'muted' },
            `Cost is estimated at list prices for models with a known price; ` +
              `${formatNumber(a.totals.unpricedTokens)} tokens of other models are not in it.`,
          )
        : null,
      charts,
      heatMap(a.byDay),
      h('div', { class: 'two' }, barTable('Per project', a.byProject), barTable('Per agent', a.byAgent)),
    );
    for (const [m, label] of METRICS) {
      const box = h('div', { class: 'chart' }, h('h2', {}, `${label} per ${unit}`));
      charts.append(box);
      if (xs.length) chart(box, label, unit, xs, ys[m], m === 'cost');
      const total = ys[m].reduce((sum, v) => sum + v, 0);
      // The canvas has a text alternative: the span of days and the total.
      box.querySelector('canvas')?.setAttribute('role', 'img');
      box
        .querySelector('canvas')
        ?.setAttribute(
          'aria-label',
          `${label} per ${unit}, ${xs.length} ${unit}s from ${monthDay(xs[0] ?? 0)}, ` +
            `${m === 'cost' ? usd(total) : formatNumber(total)} in all`,
        );
    }
  };
  select.addEventListener('change', () => void load());
  await load();
}
