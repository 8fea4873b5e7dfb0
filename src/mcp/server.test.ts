import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createStrataServer } from './server.js';
import { defineTool } from './tool.js';
import { StrataError } from '../shared/errors.js';
import type { Store } from '../store/db.js';

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'echoes',
  inputSchema: { word: z.string() },
  outputSchema: { word: z.string() },
  readsHistory: true,
  async run(args) {
    if (args.word === 'missing') throw new StrataError('NOT_FOUND', 'no such word');
    if (args.word === 'crash') throw new Error('boom');
    return { text: args.word, structured: { word: args.word, internal: 42 } as { word: string } };
  },
});
const local = defineTool({ ...echo, name: 'local', readsHistory: false });

async function connect(refreshes: string[]) {
  const { server } = createStrataServer({
    store: {} as Store,
    env: {},
    cwd: '/tmp',
    tools: [echo, local],
    refresh: async () => (refreshes.push('r'), 'fresh'),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  return client;
}

describe('createStrataServer', () => {
  it('answers with a text block and structuredContent holding only the schema keys', async () => {
    const client = await connect([]);
    const r = await client.callTool({ name: 'echo', arguments: { word: 'hi' } });
    expect(r).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { word: 'hi' } });
  });

  it("turns errors into isError results with the CLI's one line, never a stack trace", async () => {
    const client = await connect([]);
    const missing = await client.callTool({ name: 'echo', arguments: { word: 'missing' } });
    expect(missing).toEqual({ content: [{ type: 'text', text: 'strata: no such word' }], isError: true });
    const crash = await client.callTool({ name: 'echo', arguments: { word: 'crash' } });
    expect(crash).toEqual({ content: [{ type: 'text', text: 'strata: unexpected error: boom' }], isError: true });
  });

  it('refreshes the store before history tools only', async () => {
    const refreshes: string[] = [];
    const client = await connect(refreshes);
    await client.callTool({ name: 'local', arguments: { word: 'a' } });
    expect(refreshes).toEqual([]);
    await client.callTool({ name: 'echo', arguments: { word: 'a' } });
    expect(refreshes).toEqual(['r']);
  });

  it('marks every tool read-only', async () => {
    const client = await connect([]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['echo', true],
      ['local', true],
    ]);
  });
});
