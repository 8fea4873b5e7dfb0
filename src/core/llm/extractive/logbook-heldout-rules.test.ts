// Offline logbook rules found by grading the TUNE half of bench/fixtures/logbook-heldout next to its
// sources: each sentence here (written for the test, in the shape of what the sessions held) came out as
// the wrong event or as none before, and comes out right now.
import { describe, expect, it } from 'vitest';
import { events, type Message } from '../../../../test/support/logbook-events.js';

const agent = (text: string): Message => ({ role: 'assistant', text });
const edit = agent('→ Edit: src/App.svelte\n│- let x = 1;\n│+ let x = 2;');

describe('extractive logbook rules from the held-out TUNE sessions', () => {
  it('takes no bug from a sentence that says there is no problem', () => {
    const said = [
      '`guide.md` 코드 블록 안의 `[Guide title]` 등은 렌더링 영역이라 YAML 문제는 없습니다.',
      '`config.yaml` 里的占位符只是示例，所以没有问题。',
      '`config.yaml` のプレースホルダーは例なので、問題はありません。',
      'The placeholders in `config.yaml` are only examples, so there is no problem with the YAML parser.',
    ];
    for (const text of said) expect(events([agent(text), edit])).toEqual([]);
  });

  it('reads 불필요합니다 (unnecessary) as no stated constraint', () => {
    const text = '입력창이 이미 보이는 상태에서 취소하는 거라 `scrollIntoView` 호출은 불필요합니다.';
    expect(events([agent(text)])).toEqual([]);
    // The constraint itself still is one.
    expect(events([{ role: 'user', text: '배포 전에 `npm run build` 통과가 반드시 필요합니다.' }])).toHaveLength(1);
  });

  it('takes 때문에 (because) as a bug cause only beside a word for a failure', () => {
    const how =
      'macOS에서는 `set_theme`이 앱 전체 appearance를 바꾸기 때문에, 이걸 호출하면 컨텍스트 메뉴도 따라옵니다.';
    expect(events([agent(how), edit])).toEqual([]);
    const cause = '`on:blur`가 `commitRename`을 호출하기 때문에 Esc 취소 후 스크롤 오류가 납니다.';
    expect(events([agent(cause), edit]).map((e) => [e.type, e.content])).toEqual([['bug', cause]]);
  });

  it("reads an agent's mention of a default value as a description of the code, not a fact", () => {
    const texts = [
      '将 `selectedGroups` 的初始状态设置为简单的默认值，然后在客户端读取。',
      '`theme` は保存された値がなければデフォルトで `dark` になります。',
      '저장된 값이 없으면 `theme`의 기본값은 `dark`로 고정됩니다.',
    ];
    for (const text of texts) expect(events([agent(text)])).toEqual([]);
  });

  it('takes "the error occurred because" as a cause, borne out by the diff an editor export shows', () => {
    const cause = 'The error occurred because `value()` does not exist on a Playwright `Locator`.';
    const diff = agent("```diff\n- page.locator('#email').value()\n+ await page.locator('#email').inputValue()\n```");
    expect(events([agent(cause), diff]).map((e) => [e.type, e.content])).toEqual([['bug', cause]]);
    // Without any edit after it, the same sentence is one guess among others.
    expect(events([agent(cause)])).toEqual([]);
    const problem = 'The problem occurs because the `completion` variable is unset when the API call raises.';
    expect(events([agent(problem), diff]).map((e) => e.content)).toEqual([problem]);
  });

  it('keeps two bugs apart when the user reports a new error between them', () => {
    const ask = (error: string): Message => ({
      role: 'user',
      text: `For the code present, we get:\n\x60\x60\x60\n${error}\n\x60\x60\x60`,
    });
    const diff = agent('```diff\n- a\n+ b\n```');
    const first = 'The error occurred because there was an extra closing parenthesis `)` after the test title.';
    const second = 'The error occurs because a Playwright `Locator` has no `value()` method, only `inputValue()`.';
    const chat = [ask('Expected 2-3 arguments, but got 1.'), agent(first), diff];
    const reported = "Property 'value' does not exist on type 'Locator'.";
    const both = events([...chat, ask(reported), agent(second), diff]);
    // The reported error is the second bug; the agent's cause, stated after it, is its resolution.
    expect(both.map((e) => [e.content, e.resolution])).toEqual([
      [first, undefined],
      [reported, second],
    ]);
    // Without a new report in between, the second statement joins the first failure.
    expect(events([...chat, agent(second), diff]).map((e) => e.content)).toEqual([first]);
  });

  it('takes an error the user reports as a bug once the reply edits code and says what was wrong', () => {
    const zh: Message = {
      role: 'user',
      text: '保存之后刷新网页出现了错误：Error: Text content does not match server-rendered HTML.',
    };
    const why = '原因是服务端渲染时读取了 `localStorage`，和客户端的初始状态不一致。';
    const fix = agent(
      `${why}\n\n\x60\x60\x60tsx:src/app/bookmark/page.tsx\nconst [ready, setReady] = useState(false)\n\x60\x60\x60`,
    );
    // The user's words around the error are kept: they say when it happens.
    expect(events([zh, fix]).map((e) => [e.type, e.content, e.resolution])).toEqual([
      ['bug', zh.text, `${why} (in bookmark/page.tsx)`],
    ]);
    // The user comes back with the failure still there: no fixed bug.
    expect(events([zh, fix, { role: 'user', text: '还是一样的错误' }])).toEqual([]);
    // A reply that explains but edits nothing, or edits without saying what was wrong: no fixed bug.
    expect(events([zh, agent(why)])).toEqual([]);
    expect(events([zh, agent('\x60\x60\x60tsx:src/app/bookmark/page.tsx\nconst a = 1\n\x60\x60\x60')])).toEqual([]);
  });

  it('reads a short Korean "then fix it" as accepting the change just offered', () => {
    const offer = agent(
      '아니요, 저장된 값이 없으면 `theme`은 무조건 `dark`로 고정됩니다.\n\n' +
        "시스템 테마를 따르려면 `'dark'` 대신 `window.matchMedia('(prefers-color-scheme: dark)')`를 써야 합니다. 수정할까요?",
    );
    const decided =
      "시스템 테마를 따르려면 `'dark'` 대신 `window.matchMedia('(prefers-color-scheme: dark)')`를 써야 합니다.";
    for (const reply of ['응 수정해줘', '그럼 바로 수정해줘'])
      expect(events([offer, { role: 'user', text: reply }]).map((e) => [e.type, e.content])).toEqual([
        ['decision', decided],
      ]);
    expect(events([offer, { role: 'user', text: '아니, 그대로 둬' }])).toEqual([]);
  });

  it('never ends a sentence inside inline code', () => {
    const offer = agent(
      "시스템 테마를 따르려면 `'dark'` 대신 `matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'`를 " +
        '써야 합니다. 수정할까요?',
    );
    expect(events([offer, { role: 'user', text: '응 수정해줘' }]).map((e) => e.content)).toEqual([
      "시스템 테마를 따르려면 `'dark'` 대신 `matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'`를 써야 합니다.",
    ]);
  });
});
