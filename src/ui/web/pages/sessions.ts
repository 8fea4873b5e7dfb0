// Owns the Sessions page: totals over the matching sessions, filters (text, project, agent, time), a table
// sortable by any column and paged, subagent sessions folded under their parent.
import type { SessionListPage, SessionRow } from '../../../core/browse/session-list.js';
import { getJson } from '../api.js';
import { fill, formatNumber, formatTime, h, sessionHref } from '../dom.js';
import { setParams, type Route } from '../route.js';
import { clip } from '../snippet.js';

const PAGE_SIZE = 100;

interface Column {
  key: string;
  label: string;
  cell: (r: SessionRow) => Node | string;
  numeric?: boolean;
}

const num = (n: number) => (n ? formatNumber(n) : '');

/** A session's own messages, as its page counts them; a parent's row total also holds its subagents'. */
function messagesCell(r: SessionRow): Node | string {
  const own = r.messages - r.children.reduce((sum, c) => sum + c.messages, 0);
  if (own === r.messages) return num(own);
  return h('span', { title: `${formatNumber(r.messages)} with its subagent sessions` }, num(own));
}

const COLUMNS: Column[] = [
  { key: 'startedAt', label: 'Started', cell: (r) => formatTime(r.startedAt) },
  { key: 'agent', label: 'Agent', cell: (r) => h('span', { class: `agent agent-${r.agent}` }, r.agent) },
  {
    key: 'title',
    label: 'Title',
    cell: (r) => h('a', { href: sessionHref(r.id), title: r.title ?? '' }, r.title ? clip(r.title) : r.shortId),
  },
  {
    key: 'project',
    label: 'Project',
    cell: (r) => h('span', { class: 'project', title: r.project ?? '' }, r.project ?? ''),
  },
  { key: 'messages', label: 'Msgs', cell: messagesCell, numeric: true },
  { key: 'userMessages', label: 'User', cell: (r) => num(r.userMessages), numeric: true },
  { key: 'bashCalls', label: 'Bash', cell: (r) => num(r.bashCalls), numeric: true },
  {
    key: 'linesAdded',
    label: '+Lines',
    cell: (r) => (r.linesAdded ? h('span', { class: 'add' }, num(r.linesAdded)) : ''),
    numeric: true,
  },
  {
    key: 'linesRemoved',
    label: '−Lines',
    cell: (r) => (r.linesRemoved ? h('span', { class: 'del' }, num(r.linesRemoved)) : ''),
    numeric: true,
  },
  { key: 'filesTouched', label: 'Files', cell: (r) => num(r.filesTouched), numeric: true },
  { key: 'commits', label: 'Commits', cell: (r) => num(r.commits), numeric: true },
];

const SINCE = [
  ['', 'any time'],
  ['1d', 'last day'],
  ['7d', 'last 7 days'],
  ['30d', 'last 30 days'],
  ['90d', 'last 90 days'],
  ['365d', 'last year'],
];

function rowsOf(r: SessionRow, depth: number, open: Set<string>): HTMLElement[] {
  const toggle = r.children.length
    ? h(
        'button',
        {
          class: 'fold',
          title: 'subagent sessions',
          'aria-expanded': open.has(r.id) ? 'true' : 'false',
          'data-id': r.id,
        },
        `${open.has(r.id) ? '▾' : '▸'} ${r.children.length}`,
      )
    : null;
  const tr = h(
    'tr',
    { class: depth ? 'child' : '' },
    COLUMNS.map((c, i) =>
      h(
        'td',
        {
          class: `${c.numeric ? 'num ' : ''}col-${c.key}`,
          style: i === 2 && depth ? `padding-left:${depth * 1.5 + 0.5}em` : null,
        },
        c.cell(r),
        i === 2 ? [' ', toggle] : null,
      ),
    ),
  );
  const out: HTMLElement[] = [tr];
  if (open.has(r.id)) for (const c of r.children) out.push(...rowsOf(c, depth + 1, open));
  return out;
}

export async function sessionsPage(root: HTMLElement, route: Route): Promise<void> {
  const p = route.params;
  const state = {
    text: p.get('text') ?? '',
    project: p.get('project') ?? '',
    agent: p.get('agent') ?? '',
    since: p.get('since') ?? '',
    sort: p.get('sort') ?? 'startedAt',
    dir: p.get('dir') ?? 'desc',
    offset: Number(p.get('offset') ?? 0) || 0,
  };
  const open = new Set<string>();
  const stats = h('div', { class: 'cards' });
  const table = h('table', { class: 'grid sessions' });
  const pager = h('div', { class: 'pager' });
  const projectList = h('datalist', { id: 'projects' });
  const agentSelect = h('select', { name: 'agent', 'aria-label': 'agent' }, h('option', { value: '' }, 'all agents'));
  const form = h(
    'form',
    { class: 'filters', onsubmit: (e: Event) => e.preventDefault() },
    h('input', {
      type: 'search',
      name: 'text',
      placeholder: 'filter by title, project, id…',
      value: state.text,
      'aria-label': 'text',
    }),
    h('input', {
      type: 'text',
      name: 'project',
      placeholder: 'project',
      list: 'projects',
      value: state.project,
      'aria-label': 'project',
    }),
    projectList,
    agentSelect,
    h(
      'select',
      { name: 'since', 'aria-label': 'time' },
      SINCE.map(([v, label]) => h('option', { value: v!, selected: v === state.since }, label!)),
    ),
  );
  fill(root, h('h1', {}, 'Sessions'), stats, form, table, pager);

  let data: SessionListPage | undefined;
  const draw = () => {
    if (!data) return;
    const t = data.totals;
    fill(
      stats,
      [
        ['sessions', t.sessions],
        ['messages', t.messages],
        ['user prompts', t.userMessages],
        ['shell calls', t.bashCalls],
        ['lines added', t.linesAdded],
        ['lines removed', t.linesRemoved],
        ['commits', t.commits],
      ].map(([label, n]) =>
        h(
          'div',
          { class: 'card' },
          h('div', { class: 'value' }, formatNumber(n as number)),
          h('div', { class: 'label' }, label as string),
        ),
      ),
    );
    const head = h(
      'tr',
      {},
      COLUMNS.map((c) =>
        h(
          'th',
          {
            class: `${c.numeric ? 'num ' : ''}col-${c.key}`,
            'data-sort': c.key,
            'aria-sort': state.sort === c.key ? (state.dir === 'asc' ? 'ascending' : 'descending') : null,
          },
          h(
            'button',
            { type: 'button', class: 'sort', 'data-sort': c.key },
            c.label,
            state.sort === c.key ? (state.dir === 'asc' ? ' ▲' : ' ▼') : '',
          ),
        ),
      ),
    );
    const body = h(
      'tbody',
      {},
      data.rows.flatMap((r) => rowsOf(r, 0, open)),
    );
    fill(table, h('thead', {}, head), body);
    if (data.rows.length === 0)
      body.append(h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'empty' }, 'no sessions match')));
    const last = Math.min(data.matching, data.offset + data.rows.length);
    fill(
      pager,
      h('button', { disabled: data.offset === 0, 'data-page': 'prev' }, '← newer'),
      h('span', {}, data.matching ? `${data.offset + 1}–${last} of ${data.matching}` : '0 sessions'),
      h('button', { disabled: last >= data.matching, 'data-page': 'next' }, 'older →'),
    );
  };
  const load = async () => {
    setParams('sessions', {
      ...state,
      offset: state.offset || undefined,
      sort: state.sort === 'startedAt' ? undefined : state.sort,
      dir: state.dir === 'desc' ? undefined : state.dir,
    });
    data = await getJson<SessionListPage>('sessions', { ...state, pageSize: PAGE_SIZE });
    if (projectList.childElementCount === 0)
      fill(
        projectList,
        data.projects.map((p) => h('option', { value: p })),
      );
    if (agentSelect.childElementCount === 1)
      agentSelect.append(...data.agents.map((a) => h('option', { value: a, selected: a === state.agent }, a)));
    draw();
  };
  let timer: number | undefined;
  form.addEventListener('input', (e) => {
    const el = e.target as HTMLInputElement;
    (state as Record<string, string | number>)[el.name] = el.value;
    state.offset = 0;
    clearTimeout(timer);
    timer = window.setTimeout(() => void load(), el.type === 'search' || el.type === 'text' ? 200 : 0);
  });
  table.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const th = target.closest('th');
    if (th?.dataset.sort) {
      state.dir = state.sort === th.dataset.sort && state.dir === 'desc' ? 'asc' : 'desc';
      state.sort = th.dataset.sort;
      state.offset = 0;
      const key = th.dataset.sort;
      // The table is redrawn: keep the keyboard's place on the header just used.
      void load().then(() => table.querySelector<HTMLElement>(`button.sort[data-sort="${key}"]`)?.focus());
    }
    const fold = target.closest('button.fold') as HTMLElement | null;
    if (fold?.dataset.id) {
      if (open.has(fold.dataset.id)) open.delete(fold.dataset.id);
      else open.add(fold.dataset.id);
      draw();
    }
  });
  pager.addEventListener('click', (e) => {
    const which = (e.target as HTMLElement).closest('button')?.dataset.page;
    if (!which || !data) return;
    state.offset = Math.max(0, state.offset + (which === 'next' ? PAGE_SIZE : -PAGE_SIZE));
    void load().then(() => window.scrollTo(0, 0));
  });
  await load();
}
