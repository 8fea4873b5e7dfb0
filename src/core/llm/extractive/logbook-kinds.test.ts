// The kind of an event follows what happened, not how the user phrased it: a request the agent answers with
// a cause was a failure, a terminal paste pointed at "porque da error" is the error the agent diagnosed, and a
// bug read from a thread of turns is never folded into an earlier one.
import { describe, expect, it } from 'vitest';
import { agent, brief, edit, user } from '../../../../test/support/logbook-events.js';
import { PROBLEM } from './logbook-cues.js';

const TERMINAL = '@c:\\Users\\jhonk\\.cursor\\projects\\c-DailyBalance-Project\\terminals\\5.txt:7-215';

describe('extractive logbook: the kind follows what happened', () => {
  it('reads "porque da error" beside a terminal mention as the error the agent diagnosed and fixed', () => {
    const found = brief([
      user(`${TERMINAL} porque da error`),
      agent(
        'El error es un conflicto de **lifetime** en la inyección de dependencias. Los validadores de ' +
          'FluentValidation se registran como **Singleton** por defecto, pero están inyectando repositorios ' +
          'que son **Scoped**.\n\nVoy a corregir el `Program.cs` para registrar los validadores como Scoped:',
      ),
      ...edit(
        'C:\\DailyBalance_Project\\backend\\DailyBalance.Api\\Program.cs',
        'Listo. El problema era:\n\n1. FluentValidation registraba los validadores como Singleton\n\n' +
          '**Solución aplicada:**\n- Cambié los validadores a `ServiceLifetime.Scoped`\n',
      ),
    ]);
    expect(found).toEqual([
      [
        'bug',
        'El error es un conflicto de lifetime en la inyección de dependencias. Los validadores de FluentValidation ' +
          'se registran como Singleton por defecto, pero están inyectando repositorios que son Scoped.',
        'FluentValidation registraba los validadores como Singleton; Cambié los validadores a ' +
          '`ServiceLifetime.Scoped` (in DailyBalance.Api/Program.cs)',
        '1',
      ],
    ]);
  });

  it('files a request the agent answers with a cause as a fixed bug, its cause and change as the fix', () => {
    const found = brief([
      user('dont make the hover affect turn the buttons grey'),
      agent(
        'The issue was a typo - the CSS was using `--primaryDark` (camelCase) but your actual variable is ' +
          '`--primary-dark` (with hyphen).',
      ),
      ...edit('/site/public/venue-web-design.html', 'Now both button hovers use `var(--primary-dark)`.'),
    ]);
    expect(found).toEqual([
      [
        'bug',
        'dont make the hover affect turn the buttons grey',
        'The issue was a typo - the CSS was using `--primaryDark` (camelCase) but your actual variable is ' +
          '`--primary-dark` (with hyphen). → Now both button hovers use `var(--primary-dark)`. ' +
          '(in public/venue-web-design.html)',
        '1',
      ],
    ]);
  });

  it('keeps each bug of a thread of reports, even when the agent named an earlier failure just before', () => {
    const found = brief([
      user('i somehow see to be not able to use the venv when running the wsgi.py'),
      agent('The issue is with PowerShell\u2019s execution policy preventing you from running `Activate.ps1`.'),
      ...edit('/app/run.ps1', 'Fixed PowerShell Execution Policy - changed it to `RemoteSigned` for your user.'),
      user(
        'this causes a problem, when the requested parameters are not valid, e.g. there is no week 10 in the ' +
          'real data set and no buttons are shown at all',
      ),
      ...edit('/app/templates/stats.html', 'I added `validateAndFixUrlParameters()` to reset invalid weeks.'),
    ]);
    expect(found.map((e) => [e[0], e[3]])).toEqual([
      ['bug', '1'],
      ['bug', '6'],
    ]);
  });

  it('never takes a prediction ("The changes I made should fix …") or a plan ("voy a …") as the change', () => {
    const found = brief([
      user('the colors in the "Season Overview" table get dropped, everything is gray. please fix it'),
      ...edit('/app/components/tables.html', 'The changes I made should fix the issue with the table colors.'),
      user('ahora desarrolla la funcionalidad para el boton delete all de la lista de palabras'),
      ...edit('/app/ViewWordsView.swift', 'Primero voy a revisar el método `deleteAllExpressions` actual.'),
    ]);
    expect(found.map((e) => e[1])).not.toContainEqual(expect.stringMatching(/should fix|voy a revisar/));
  });

  it('reads the words above a pasted folder tree, from the clause that asks', () => {
    const found = brief([
      user(
        'actualmente mi apartado de @frontend/src/pages/DailyPage.tsx utiliza simplemente fake data, no tiene ' +
          'backend en C:\\DailyBalance_Project\\backend necesito que utilizando la arquitectura DDD me generes ' +
          'lo necesario (Modelos, Infraestructura, todo para que el backend sea funcional)\n\n' +
          'quiero una estructura como esta:\nbackend/AccountReceivables.Api/\n' +
          `${'├── Database/   # Configuración de EF Core\n│   ├── Models/   # Modelos anémicos\n'.repeat(12)}` +
          '└── Shared/     # Código compartido\n\n' +
          '## Tecnologías\n## Capas\n## Reglas\n',
      ),
      ...edit(
        '/backend/DailyBalance.Api/Program.cs',
        'He creado un backend completo con arquitectura DDD para tu aplicación DailyBalance.',
      ),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]![1]).toMatch(/^no tiene backend en .*necesito que utilizando la arquitectura DDD/);
    expect(found[0]![1]).toContain('→ He creado un backend completo con arquitectura DDD');
  });

  it('reads "编程问题" (programming questions) as no problem reported, "有问题" as one', () => {
    expect(PROBLEM.test('智能问答：用户输入编程问题，系统从知识库中检索并生成精准答案')).toBe(false);
    expect(PROBLEM.test('点击历史对话没有反应，登录也有问题')).toBe(true);
  });

  it('quotes no pasted code line as a symptom, and drops a "Progress update:" label from the change', () => {
    const found = brief([
      user('users = engine.convert(df, "pydantic") # List[User]\n\nthis fails when I convert the frame to users'),
      ...edit('/politipo/core/engine.py', 'Progress update: I fixed `convert` to take the target model class.'),
      user('it works now, thanks'),
    ]);
    expect(found.map((e) => e[1])).not.toContainEqual(expect.stringMatching(/^users = /));
    expect(JSON.stringify(found)).not.toContain('Progress update');
    expect(JSON.stringify(found)).toContain('I fixed `convert` to take the target model class.');
  });

  it('keeps a decision whole within 300 characters: the files give up room before the words do', () => {
    const ask =
      'Давай зробимо бота на Python/aiogram (останніх версій). Цей бот буде у Telegram групі, він буде ' +
      "відповідати на повідомлення якщо згадується його ім'я/тег (гряг, @gryag_bot).";
    const found = brief([
      user(ask),
      agent('→ Edit: /home/user/projects/gryag/src/bot/handlers/mention_handler_with_long_name.py'),
      { role: 'tool', text: '← Edit: ok' },
      ...edit(
        '/home/user/projects/gryag/src/bot/configuration/environment_settings_loader.py',
        'I added `main.py`, `requirements.txt`, `.env.example`, updated `.env` and added `README.md`.',
      ),
    ]);
    const content = found[0]![1] as string;
    expect(content.length).toBeLessThanOrEqual(300);
    expect(content).not.toContain('\u2026');
    expect(content).toContain('(гряг, @gryag_bot). → I added `main.py`');
  });
});
