// Turns on one subject are one event: a tweak of the work just done joins it, a failure reported after a
// fix of the same files is the same bug going on (the last fix stands), and the agent's plans, code and
// open to-dos are never the change it states.
import { describe, expect, it } from 'vitest';
import { agent, brief, edit, user } from '../../../../test/support/logbook-events.js';

describe('extractive logbook: threads of turns on one subject', () => {
  it('reads a tweak of the work just done ("mmm, thinner on mobile") as part of the first request', () => {
    const ask = 'hace que todos los modales ocupen maximo 90 vh de alto y 85 vw de ancho, con bordes redondeados';
    const found = brief([
      user(ask),
      ...edit('/src/AdminModal.css', 'Los modales ahora ocupan como máximo 90vh de alto y 85vw de ancho.'),
      user('mmm hace que todos sean mas finos en mobile, osea menos ancho'),
      ...edit('/src/AdminModal.css', 'Reduje el ancho de los modales en mobile a 80vw.'),
      user('perfecto, ahora cambiemos el color del titulo del header a azul oscuro'),
      ...edit('/src/Header.css', 'Cambié el color del título del header a azul oscuro (`#1e3a8a`).'),
    ]);
    expect(found.map((e) => [e[0], e[3]])).toEqual([
      ['decision', '1'],
      ['decision', '9'],
    ]);
    expect(found[0]![1]).toBe(
      `${ask} → Los modales ahora ocupan como máximo 90vh de alto y 85vw de ancho. (in src/AdminModal.css)`,
    );
    // The praise that opens a turn is no part of the request quoted.
    expect(found[1]![1]).toMatch(/^ahora cambiemos el color del titulo/);
  });

  it('cuts a long request after its last whole clause, not in the middle of one', () => {
    const ask =
      'ahora hace que el AdminHistoryModal ocupe 90% de la pantalla, y adecua los botones que tiene para que se ' +
      'vean mejor en mobile la lista de eventos y los filtros de arriba, que hoy se superponen con el titulo del ' +
      'modal cuando la pantalla es chica y no dejan leer nada';
    const found = brief([
      user(ask),
      ...edit('/src/AdminModal.css', 'Cambié el modal para que ocupe el 90% de la pantalla.'),
    ]);
    expect(found[0]![1]).toBe(
      'ahora hace que el AdminHistoryModal ocupe 90% de la pantalla, y adecua los botones que tiene para que se ' +
        'vean mejor en mobile la lista de eventos y los filtros de arriba → Cambié el modal para que ocupe el 90% ' +
        'de la pantalla. (in src/AdminModal.css)',
    );
  });

  it('keeps one bug per failure, with the fix that worked after the ones that did not', () => {
    const report = 'for some reason I cant see the generated qr code on the payment screen';
    const found = brief([
      user(report),
      ...edit('/assets/js/hooks/qr.js', 'I switched the hook to use the global `QRCode` from qrcodejs.'),
      user('When testing it, there is this error: QRCode Hook - QRCode library not available'),
      ...edit('/assets/js/hooks/qr.js', 'I replaced qrcodejs with the Google Charts API.'),
      user('I got this error: Failed to load resource: the server responded with a status of 404'),
      ...edit('/assets/js/hooks/qr.js', 'I replaced the JavaScript dependency with the Elixir `qr_code` library.'),
      user('great, it works now'),
    ]);
    expect(found).toEqual([
      ['bug', report, 'I replaced the JavaScript dependency with the Elixir `qr_code` library. (in hooks/qr.js)', '1'],
    ]);
  });

  it('reads an error met "when testing it" as the same bug going on, even in other files', () => {
    const found = brief([
      user('the qr code does not show on the payment screen'),
      ...edit('/assets/js/app.js', 'I changed the import of qrcodejs in `app.js`.'),
      user('When testing it, there is this error: QRCode Hook - QRCode library not available'),
      ...edit('/lib/pos/qr.ex', 'I replaced qrcodejs with the Elixir `qr_code` library in `qr.ex`.'),
      user('works now, thanks'),
    ]);
    expect(found.map((e) => [e[0], e[3]])).toEqual([['bug', '1']]);
    expect(found[0]![2]).toMatch(/Elixir `qr_code` library/);
  });

  it("keeps the fix the user did not judge broken, and never the agent's earlier attempts as bugs", () => {
    const hook = '/assets/js/hooks/qr.js';
    const found = brief([
      user('for some reason I cant see the generated qr code'),
      agent('The problem was with how the `qrcodejs` library was imported.'),
      ...edit(hook, 'I changed the import of `qrcodejs` in the hook.'),
      user('I got this error: Failed to load resource: the server responded with a status of 404'),
      agent('The issue was that the Google Charts API is an external service we cannot rely on.'),
      ...edit(hook, 'I replaced the external dependency with the Elixir `qr_code` library rendering an SVG.'),
      user('I got this error when trying to generate it: protocol String.Chars not implemented'),
      ...edit(hook, 'I convert the QR struct to a string before rendering.'),
      user('I tried it myself and got this error: no with clause matching'),
    ]);
    expect(found.map((e) => [e[0], e[3]])).toEqual([['bug', '1']]);
    expect(found[0]![2]).toMatch(/Elixir `qr_code` library/);
  });

  it('drops a request the next turn reports broken, and keeps that report as the bug it fixed', () => {
    const found = brief([
      user('add a crosshair ring around the cursor dot on the canvas page'),
      ...edit('/build/script.js', 'I added a crosshair ring that follows the cursor.'),
      user('the crosshair is not working it is just stuck in the top left corner could you fix this'),
      ...edit('/build/script.js', 'Removed the duplicate `let mouseX` declarations that stopped the script.'),
      user('works now, thanks'),
    ]);
    expect(found.map((e) => [e[0], e[3]])).toEqual([['bug', '5']]);
    expect(found[0]![2]).toMatch(/^Removed the duplicate/);
  });

  it('never takes a plan, a prediction, code or an open to-do as the change the agent states', () => {
    const ask = 'make the events list fill all the free space of the history modal, with one scrollbar only';
    for (const said of [
      'Esto debería hacer que la lista ocupe todo el espacio.',
      'El problema es que necesitamos ajustar la estructura de contenedores.',
      '// listen to the container size and fill it',
      '[-] Make EventsList fill the modal',
    ]) {
      const found = brief([user(ask), ...edit('/src/HistoryModal.css', said)]);
      // The request carried out with edits stands on its own words, without the agent's.
      expect(found, said).toEqual([['decision', `${ask} (in src/HistoryModal.css)`, undefined, '1']]);
    }
  });

  it('logs the agent\'s findings only as notes, and a bare "Fixed …" line never as a bug', () => {
    const found = brief([
      user('review the release setup'),
      agent(
        'The release build requires network access to the font CDN at startup. Note that the updater only ' +
          'supports signed builds on macOS. Fixed the gitignore entry for the build folder.',
      ),
    ]);
    expect(found).toEqual([['fact', 'Note that the updater only supports signed builds on macOS.', undefined, '2']]);
  });

  it('takes code the agent only showed as the fix once the user says it works', () => {
    const error = "Uncaught TypeError: Cannot read properties of undefined (reading 'getchar')";
    const found = brief([
      user(`Similar error, different macro:\n\x60\x60\x60\n${error}\n\x60\x60\x60`),
      agent(
        'The problem is that most macros are not passing `textManager` to the drawing functions.\n' +
          '\x60\x60\x60js\nfiveCircles(p, { textManager });\n\x60\x60\x60',
      ),
      // "actually" deep in a reply that opens by saying it works redirects nothing.
      user("It's working now, thanks! There's another warning, but I haven't actually seen it affect anything."),
    ]);
    expect(found).toEqual([
      [
        'bug',
        `Similar error: ${error}`,
        'The problem is that most macros are not passing `textManager` to the drawing functions.',
        '1',
      ],
    ]);
  });

  it('never joins a turn to a thread across a question, nor takes "いけた" or a question in 吗 as a request', () => {
    const found = brief([
      user('add a dark theme toggle to the settings page header'),
      ...edit('/src/Settings.tsx', 'Added a dark theme toggle to the settings header.'),
      user('how does the toggle store its state?'),
      agent('It stores it in localStorage under `theme`.'),
      user('continue'),
      ...edit('/src/Other.tsx', 'Updated the footer links.'),
      user('いけた'),
      ...edit('/src/Other.tsx', 'Updated the footer links again.'),
      user('当前文件夹状态正常吗'),
      ...edit('/src/Other.tsx', 'Removed the stale lock file.'),
      user('我目前的代码是否和远程github仓库建立了链接，当前的状态是啥'),
      ...edit('/src/Other.tsx', '已经把远程仓库添加为 origin。'),
    ]);
    expect(found.map((e) => [e[0], e[1]])).toEqual([
      [
        'decision',
        'add a dark theme toggle to the settings page header → Added a dark theme toggle to the settings header. ' +
          '(in src/Settings.tsx)',
      ],
    ]);
  });

  it('keeps a rule the user states beside a request as a fact ("must be", "never")', () => {
    const rule = 'New game actions must be as simple to implement for new card mechanics as possible.';
    const found = brief([
      user(`${rule} Add a reaction hook to the actions.`),
      ...edit('/src/actions.ts', "I didn't change the card mechanics yet, only read the actions."),
    ]);
    expect(found.map((e) => [e[0], e[1]])).toContainEqual(['fact', rule]);
  });

  it('reads "make those styles only apply to …" on the same file as a correction of the work it points at', () => {
    const found = brief([
      user('Remove the top 2rem of the image on @public/ecommerce-web-design.html'),
      ...edit('/site/public/ecommerce-web-design.html', 'Added `object-fit: cover` to crop off the top 2rem.'),
      user('Make those image styles only apply to the green shades coffee co one'),
      ...edit(
        '/site/public/ecommerce-web-design.html',
        'I created a `.crop-top` class with the cropping styles and applied it only to the Green Shades Coffee image.',
      ),
    ]);
    expect(found).toEqual([
      [
        'decision',
        'Remove the top 2rem of the image on @public/ecommerce-web-design.html → I created a `.crop-top` class ' +
          'with the cropping styles and applied it only to the Green Shades Coffee image.',
        undefined,
        '1',
      ],
    ]);
  });

  it('cuts a long change after a whole clause, never inside code or quotes, with no connective left hanging', () => {
    const found = brief([
      user('in `get_announcements`, if the model can prefill add the infinity symbol after the edit format.'),
      ...edit(
        '/aider/coders/base_coder.py',
        'This change adds a conditional statement to check if the model supports assistant prefill, and if so, it ' +
          'appends the infinity symbol to the `output` string after the edit format, as in `f"{a}, {b}"`, so the ' +
          'announcement shows it.',
      ),
    ]);
    expect(found[0]![1]).toBe(
      'in `get_announcements`, if the model can prefill add the infinity symbol after the edit format. → This ' +
        'change adds a conditional statement to check if the model supports assistant prefill ' +
        '(in coders/base_coder.py)',
    );
  });
});
