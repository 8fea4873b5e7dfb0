// Owns the Logbook page: a project's timeline of decisions, facts and bugs (built by `strata logbook`),
// newest first and grouped by month, with filters by workspace, type, time and text, and each event
// linking to the message it cites (the Session page opened at that message).
import type { LogbookTimeline, TimelineEntry } from '../../../core/browse/logbook-timeline.js';
import { shellArg } from '../../../shared/shell-arg.js';
import { getJson } from '../api.js';
import { fill, formatTime, h, highlighted, sessionHref } from '../dom.js';
import { setParams, type Route } from '../route.js';

const TYPES = [
  ['decision', 'Decisions'],
  ['fact', 'Facts'],
  ['bug', 'Bugs'],
] as const;
const SINCE = [
  ['', 'any time'],
  ['7d', 'last 7 days'],
  ['30d', 'last 30 days'],
  ['90d', 'last 90 days'],
  ['365d', 'last year'],
];

function howToMakeOne(): HTMLElement {
  return h(
    'section',
    { class: 'panel logbook-empty' },
    h('h2', {}, 'No logbook yet'),
    h(
      'p',
      {},
      'A logbook is the timeline of what a project decided, learned and broke, built from its sessions. Make one with:',
    ),
    h('pre', { class: 'code' }, 'strata logbook --project DIR'),
    h(
      'p',
      { class: 'muted' },
      'DIR is the project folder (the current folder by default). Then reload this page; ',
      h('code', {}, 'strata logbook list'),
      ' shows the projects that have one.',
    ),
  );
}

function eventItem(e: TimelineEntry, words: string[]): HTMLElement {
  const cite = `${e.sessionTitle ?? e.source.session} #${e.source.message}`;
  const read = `strata read ${shellArg(e.source.session)} ${e.source.message}`;
  return h(
    'li',
    { class: `event type-${e.type}` },
    h(
      'div',
      { class: 'event-head' },
      h('span', { class: `badge type ${e.type}` }, e.type),
      h('time', { datetime: e.timestamp }, formatTime(e.timestamp)),
      e.sessionStored
        ? h('a', { class: 'cite', href: sessionHref(e.source.session, e.source.message), title: read }, cite)
        : h('span', { class: 'cite', title: 'this session is not in the store' }, read),
      h('span', { class: `agent agent-${e.source.agent}` }, e.source.agent),
    ),
    h('div', { class: 'event-content' }, highlighted(e.content, words)),
    e.rationale
      ? h('div', { class: 'event-detail' }, h('span', { class: 'label' }, 'why'), highlighted(e.rationale, words))
      : null,
    e.alternatives?.length
      ? h(
          'div',
          { class: 'event-detail' },
          h('span', { class: 'label' }, 'instead of'),
          highlighted(e.alternatives.join(' · '), words),
        )
      : null,
    e.code ? h('div', { class: 'event-detail' }, h('span', { class: 'label' }, 'code'), h('code', {}, e.code)) : null,
    e.resolution
      ? h(
          'div',
          { class: 'event-detail resolution' },
          h('span', { class: 'label' }, 'fixed'),
          highlighted(e.resolution, words),
        )
      : null,
  );
}

/** Events grouped under one heading per month (they arrive newest first). */
function timeline(events: TimelineEntry[], words: string[]): HTMLElement[] {
  const out: HTMLElement[] = [];
  let month = '';
  let list: HTMLElement | undefined;
  for (const e of events) {
    if (e.timestamp.slice(0, 7) !== month || !list) {
      month = e.timestamp.slice(0, 7);
      list = h('ol', { class: 'timeline' });
      out.push(h('h2', { class: 'month' }, month), list);
    }
    list.append(eventItem(e, words));
  }
  return out;
}

export async function logbookPage(root: HTMLElement, route: Route): Promise<void> {
  const p = route.params;
  const state = {
    workspace: p.get('workspace') ?? '',
    type: p.get('type') ?? '',
    since: p.get('since') ?? '',
    text: p.get('text') ?? '',
  };
  const chosen = new Set(state.type.split(',').filter(Boolean));
  const workspaceSelect = h('select', { name: 'workspace', 'aria-label': 'workspace' });
  const typeBoxes = TYPES.map(([type]) =>
    h('input', { type: 'checkbox', name: 'type', value: type, checked: chosen.size === 0 || chosen.has(type) }),
  );
  const typeLabels = TYPES.map(([type, label], i) =>
    h('label', { class: `type-filter ${type}` }, typeBoxes[i], ' ', label, h('span', { class: 'count' })),
  );
  const form = h(
    'form',
    { class: 'filters', onsubmit: (e: Event) => e.preventDefault() },
    workspaceSelect,
    typeLabels,
    h(
      'select',
      { name: 'since', 'aria-label': 'time' },
      SINCE.map(([v, label]) => h('option', { value: v!, selected: v === state.since }, label!)),
    ),
    h('input', {
      type: 'search',
      name: 'text',
      placeholder: 'filter by words…',
      value: state.text,
      'aria-label': 'text',
    }),
  );
  const summary = h('p', { class: 'muted logbook-summary' });
  const results = h('div', { class: 'results' });
  fill(root, h('h1', {}, 'Logbook'), h('p', { class: 'muted' }, 'loading…'));

  let seq = 0;
  const load = async () => {
    const mine = ++seq;
    const checked = typeBoxes.filter((b) => b.checked).map((b) => b.value);
    state.type = checked.length === TYPES.length ? '' : checked.join(',');
    setParams('logbook', state);
    let data: LogbookTimeline;
    try {
      data = await getJson<LogbookTimeline>('logbook', state);
    } catch (error) {
      if (!root.contains(form)) throw error;
      return fill(results, h('p', { class: 'error-text' }, error instanceof Error ? error.message : String(error)));
    }
    if (mine !== seq) return;
    if (!data.workspace) return fill(root, h('h1', {}, 'Logbook'), howToMakeOne());
    if (!root.contains(form)) fill(root, h('h1', {}, 'Logbook'), form, summary, results);
    if (workspaceSelect.childElementCount === 0) {
      fill(
        workspaceSelect,
        data.workspaces.map((w) =>
          h('option', { value: w.workspace, selected: w.workspace === data.workspace }, `${w.workspace} (${w.events})`),
        ),
      );
      workspaceSelect.hidden = data.workspaces.length < 2;
    }
    TYPES.forEach(([type], i) => fill(typeLabels[i]!.querySelector('.count')!, ` ${data.byType[type]}`));
    // No type ticked shows nothing rather than everything (the API reads an empty list as no filter).
    const events = checked.length === 0 ? [] : data.events;
    fill(
      summary,
      `${data.workspace} · ${
        events.length === data.total ? `${data.total} events` : `${events.length} of ` + `${data.total} events`
      }`,
      data.sourceRange
        ? ` · sessions from ${data.sourceRange.from.slice(0, 10)} to ${data.sourceRange.to.slice(0, 10)}`
        : '',
      data.generatedAt ? ` · generated ${formatTime(data.generatedAt)}` : '',
      data.generator ? ` by ${data.generator.provider}` : '',
    );
    const words = state.text.split(/\s+/).filter(Boolean);
    fill(
      results,
      events.length
        ? timeline(events, words)
        : h(
            'p',
            { class: 'muted empty' },
            data.total ? 'No event matches these filters.' : 'This logbook has no events yet.',
          ),
    );
  };
  let timer: number | undefined;
  form.addEventListener('input', (e) => {
    const el = e.target as HTMLInputElement;
    if (el.name !== 'type') (state as Record<string, string>)[el.name] = el.value;
    clearTimeout(timer);
    timer = window.setTimeout(() => void load(), el.type === 'search' ? 200 : 0);
  });
  await load();
}
