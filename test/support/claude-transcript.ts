// Test support: a two-turn Claude Code transcript (a user prompt, the reply "Understood.") in /work/app.
export function claudeTranscript(id: string, prompt: string): string {
  const turn = (type: string, content: unknown, minute: number) =>
    JSON.stringify({
      type,
      sessionId: id,
      cwd: '/work/app',
      timestamp: `2025-03-01T10:0${minute}:00Z`,
      message: { role: type, content },
    });
  return `${turn('user', prompt, 0)}\n${turn('assistant', [{ type: 'text', text: 'Understood.' }], 1)}\n`;
}
