// Events read from the user's turns: a request carried out with edits is the user's decision with what
// changed, a problem the user reported and the edits then fixed is one bug, and the user's next turn
// judges the work (still failing or undone: no event; the turn that fixes it next takes the symptom over).
import { describe, expect, it } from 'vitest';
import { agent, brief, edit, events, user } from '../../../../test/support/logbook-events.js';

describe("extractive logbook: episodes of the user's turns", () => {
  it("takes a request the agent carried out as the user's decision, with what changed and where", () => {
    const ask = 'make build part of verify, i dont want to remember 5 commands';
    const found = brief([
      user(ask),
      ...edit('/repo/package.json', "Done. I've made `build` part of `verify` by adding it to the turbo task list."),
      user('thanks'),
    ]);
    expect(found).toEqual([
      [
        'decision',
        `${ask} → I've made \`build\` part of \`verify\` by adding it to the turbo task list. (in repo/package.json)`,
        undefined,
        '1',
      ],
    ]);
  });

  it('takes a problem the user reports in Korean, fixed by an edit, as one bug with the fix', () => {
    const report = '대시보드 월 사용량 바 그래프가 안보여.';
    const found = brief([
      user(`${report} 수정해줘`),
      agent('원인은 일별 데이터가 없어서 `calls`가 전부 0이기 때문입니다.'),
      ...edit('/app/dashboard/page.tsx', '변경 사항: 바 그래프 렌더링 수정: 월별 `api_usage`를 일 수로 균등 분배'),
      user('커밋 푸시'),
    ]);
    expect(found).toEqual([
      [
        'bug',
        report,
        '원인은 일별 데이터가 없어서 `calls`가 전부 0이기 때문입니다. → 바 그래프 렌더링 수정: 월별 `api_usage`를 일 수로 ' +
          '균등 분배 (in dashboard/page.tsx)',
        '1',
      ],
    ]);
  });

  it('drops the work the user says still fails, and gives its symptom to the turn that fixes it', () => {
    const report = 'La página de artículos no carga: Cannot read properties of undefined';
    const found = brief([
      user(report),
      ...edit('/web/usePagination.ts', 'He cambiado `pageNumber` en `usePagination.ts`.'),
      user('sigue fallando igual'),
      ...edit('/web/articles/page.tsx', 'Cambié `data.items` por `data.data` en la página de artículos.'),
      user('ya funciona'),
    ]);
    expect(found).toEqual([
      ['bug', report, 'Cambié `data.items` por `data.data` en la página de artículos. (in articles/page.tsx)', '1'],
    ]);
  });

  it('logs nothing for a question answered in words, a chore, or work the user asks to undo', () => {
    const explain = agent(
      '`collection_name` is None when the knowledge base has no vectors yet, so defaults are used.',
    );
    expect(events([user('what does it mean when collection_name is missing?'), explain])).toEqual([]);
    expect(events([user('commit and push'), ...edit('/repo/CHANGELOG.md', 'Updated the changelog.')])).toEqual([]);
    const undone = [user('rename the sidebar item to Invoices'), ...edit('/ui/Sidebar.tsx', 'Renamed it.')];
    expect(events([...undone, user('no, revert that')])).toEqual([]);
    // "next, …" or "sigue …" open a request or a complaint, not a chore.
    const next = [
      user('next, make the sidebar narrower'),
      ...edit('/ui/Sidebar.tsx', 'Set the sidebar width to 200px.'),
    ];
    expect(events(next).map((e) => e.type)).toEqual(['decision']);
  });

  it('takes no decision from a question, a pasted command, a request pointing back or work not done', () => {
    const work = edit('/app/config.ts', 'Updated `MONGODB_URL` in `config.ts`.');
    const noSubject = ['Implement the following plan', '@agent Continue: "Continue to iterate?"', 'try again'];
    for (const ask of ['did you complete the previous task', 'source ~/.bashrc && flow help', 'fix both of them'])
      expect(events([user(ask), ...work]), ask).toEqual([]);
    for (const ask of noSubject) expect(events([user(ask), ...work]), ask).toEqual([]);
    // The agent saying it did not do it is no account of the change.
    const notDone = edit('/ui/Invoice.tsx', 'No implementé la barra de botones abajo como en el formulario.');
    expect(events([user('la barra de botones de la factura debe estar abajo, fija'), ...notDone])).toEqual([]);
    // "error handling" names a topic, not a failure: the request is a decision.
    const topic = user('Add a section on error handling and naming conventions to CONTRIBUTING.md');
    expect(
      events([topic, ...edit('/repo/CONTRIBUTING.md', 'Added the section to `CONTRIBUTING.md`.')]).map((e) => e.type),
    ).toEqual(['decision']);
  });

  it('quotes the sentence that asks, takes a labelled cause, and never a plan as the change', () => {
    const ask = 'no no, ya estas haciendo cualquier cosa. Todos los listados deben usar el mismo `PagedResult`.';
    const work = [
      agent('Necesito cambiar los tipos de paginación.'),
      ...edit('/web/types/pagination.ts', 'Cambié todos los listados a un único `PagedResult<T>`.'),
    ];
    expect(events([user(ask), ...work]).map((e) => e.content)).toEqual([
      'Todos los listados deben usar el mismo `PagedResult`. → ' +
        'Cambié todos los listados a un único `PagedResult<T>`. (in types/pagination.ts)',
    ]);
    const report = '파일 이름이 다른 행과 정렬이 안맞아.';
    const fixed = [
      user(report),
      agent('원인: `.rename-input`의 `padding-left`만큼 텍스트가 밀림'),
      ...edit('/src/App.svelte', 'wrapper에 `margin-left: -6.5px`를 적용했습니다.'),
    ];
    expect(events(fixed).map((e) => [e.type, e.resolution])).toEqual([
      [
        'bug',
        '원인: `.rename-input`의 `padding-left`만큼 텍스트가 밀림 → wrapper에 `margin-left: -6.5px`를 적용했습니다. ' +
          '(in src/App.svelte)',
      ],
    ]);
  });

  it("keeps a reported problem without evidence of its fix out, and the agent's plan out of the fix", () => {
    const report = 'the export button does nothing';
    // An edit the user neither confirms nor commits, with no stated cause: not shown as fixed.
    const unconfirmed = [user(report), ...edit('/ui/Export.tsx', 'Added a click handler to `ExportButton`.')];
    expect(events([...unconfirmed, user('now add a dark theme')]).filter((e) => e.type === 'bug')).toEqual([]);
    expect(brief([...unconfirmed, user('works now')])[0]?.[2]).toBe(
      'Added a click handler to `ExportButton`. (in ui/Export.tsx)',
    );
    // "Let me …" narrates: the change the agent states is the fix.
    const narrated = [
      user(report),
      agent("Let me check the button's handler first."),
      ...edit('/ui/Export.tsx', 'I added the missing `onClick` to `ExportButton`.'),
      user('works now'),
    ];
    expect(brief(narrated)[0]?.[2]).toBe('I added the missing `onClick` to `ExportButton`. (in ui/Export.tsx)');
  });

  it('reads an edit a subagent was asked to make, and an error pasted below an intro', () => {
    const pasted = 'For the code present, we get this error:\n```\nExpected 2-3 arguments, but got 1.\n```';
    const found = brief([
      user(pasted),
      agent('→ Task: Edit the file `/repo/tests/login.spec.ts` to drop the extra parenthesis'),
      agent('The error occurred because there was an extra closing parenthesis after the test title.'),
      user('great, thanks'),
    ]);
    expect(found.map(([type, content]) => [type, content])).toEqual([['bug', 'Expected 2-3 arguments, but got 1.']]);
  });

  it('reads the words a user typed above a long pasted advice as the turn', () => {
    const advice = ['## 정리', '## 해결 방법', '## 참고']
      .map((h) => `${h}\n${'- positions[symbol]는 이제 dict입니다. 접근 전에 초기화해야 합니다.\n'.repeat(8)}`)
      .join('\n');
    const lead = '테스트에서 KeyError가 떠. dictionary로 바꾸면서 positions 초기화가 안 되는 것 같은데 고쳐줘.';
    const found = brief([
      user(`${lead}\n\n${advice}`),
      ...edit('/training/backtesting/base_backtester.py', '`update()`에서 포지션을 먼저 초기화하도록 수정했습니다.'),
      user('좋아 커밋해줘'),
    ]);
    expect(found.map((e) => [e[0], e[3]])).toEqual([['bug', '1']]);
    expect(found[0]![1]).toContain('KeyError가 떠');
  });

  it('reads a Chinese request written without spaces, and still leaves a long token out', () => {
    const ask = '使用pnpm升级vitepress，和@vite-pwa/vitepress，注意viteconfig的配置也要同步更新';
    const found = brief([
      user(`${ask}\nsha512-${'Ab9'.repeat(30)}`),
      ...edit('/.vitepress/config.ts', 'Upgraded VitePress from 1.0.0-rc.33 to 1.6.3 and updated `config.ts`.'),
      user('很好'),
    ]);
    expect(found).toEqual([
      ['decision', `${ask} → Upgraded VitePress from 1.0.0-rc.33 to 1.6.3 and updated \`config.ts\`.`, undefined, '1'],
    ]);
  });
});
