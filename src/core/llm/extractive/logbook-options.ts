// Owns options the agent offers: a numbered or labelled list of ways ("1. …", "Option A: …", "방법 2: …")
// in a message that asks the user to choose. None is a decision unless the user's reply picks one; then
// the picked one is, in the user's words and the option's text.
import type { LogbookChunkMessage } from '../task-schemas.js';
import { withoutToolLines } from './logbook-evidence.js';
import { proseSentences, tidy } from './segments.js';

const ITEM = new RegExp(
  String.raw`^\s*(?:#{1,4}\s*)?(?:[-*]\s*)?(?:\*\*)?(?:(?:option|opción|opcion|方案|选项|選項|オプション|案|옵션|방법|` +
    String.raw`선택지)\s*([A-Za-z0-9一二三四]+)|(\d)[.)、]|([A-C])[.)])\s*(?:\*\*)?[:：.)]?\s*(.*)$`,
  'i',
);
/** A question that hands the choice back ("which one?", "어느 쪽으로 할까요?", "¿cuál prefieres?"). */
const CHOOSE =
  /\b(?:which|prefer|want me to|would you like|should i|shall i)\b|cuál|prefieres|哪|どちら|どれ|어느|어떤|할까요/i;

export interface Offered {
  /** Each option's label ("1", "A") and text. */
  items: Array<{ label: string; text: string }>;
}

/** The options a message offers, when it lists two or more and asks which to take. */
export function offeredOptions(message: LogbookChunkMessage): Offered | undefined {
  if (message.role === 'user') return undefined;
  const text = withoutToolLines(message.text);
  // The options are the last list before the question: plan steps listed earlier are not what it asks.
  const blocks: Array<Array<{ label: string; text: string }>> = [[]];
  // Options as headings ("### 방법 1: …") stand apart from the prose under each.
  const headed: Array<{ label: string; text: string }> = [];
  let prose = false;
  for (const line of text.split('\n')) {
    if (!line.trim() || /^\s*(?:-{3,}|\x60{3})/.test(line)) continue;
    const m = ITEM.exec(line);
    const labelled = m && (m[1] ?? m[2] ?? m[3]);
    if (labelled && /^\s*#/.test(line)) {
      if (m[4]!.trim()) headed.push({ label: labelled.toUpperCase(), text: tidy(m[4]!.replace(/\*\*/g, '')) });
      continue;
    }
    const bullet = !labelled && /^\s*[-*]\s+(\S.*)$/.exec(line);
    if (labelled || bullet) {
      if (prose && blocks[blocks.length - 1]!.length > 0) blocks.push([]);
      prose = false;
      const block = blocks[blocks.length - 1]!;
      const body = labelled ? m[4]!.trim() : bullet ? bullet[1]! : '';
      const label = labelled ? labelled.toUpperCase() : String(block.length + 1);
      if (body) block.push({ label, text: tidy(body.replace(/\*\*/g, '')) });
    } else if (!/^\s*#/.test(line)) prose = true;
  }
  const items = headed.length >= 2 ? headed : (blocks.filter((b) => b.length >= 2).pop() ?? []);
  const asks = proseSentences(text).some((s) => /[?？]\s*$/.test(s) && CHOOSE.test(s));
  return items.length >= 2 && asks ? { items } : undefined;
}

const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, primera: 1, segunda: 2, tercera: 3 };

/** The option the user's reply picks ("2", "option B", "2번", "第二个", "the second one"), if any. */
export function pickedOption(offered: Offered, reply: string): { label: string; text: string } | undefined {
  const r = reply.trim();
  if (r.length > 200) return undefined;
  // A bare letter picks only in capitals ("B, …"): "a good idea" picks nothing.
  const lead =
    /^(?:(?:[Oo]ption|[Oo]pción|方案|选项|옵션|방법)\s*([A-Za-z0-9])|([A-Z]|\d))(?:번|号|으로|로)?(?:[\s.,!:)]|$)/;
  const led = lead.exec(r);
  const label =
    led?.[1] ??
    led?.[2] ??
    /(?:option|opción|方案|选项|옵션|방법)\s*([A-Za-z0-9])\b/i.exec(r)?.[1] ??
    /(\d)\s*번/.exec(r)?.[1] ??
    /第\s*([一二三1-3])/.exec(r)?.[1]?.replace('一', '1').replace('二', '2').replace('三', '3');
  const ordinal = /\b(first|second|third|primera|segunda|tercera)\b/i.exec(r)?.[1]?.toLowerCase();
  const wanted = label?.toUpperCase() ?? (ordinal ? String(ORDINALS[ordinal]) : undefined);
  const byLabel = offered.items.find((i) => i.label === wanted);
  if (byLabel) return byLabel;
  if (ordinal) return offered.items[ORDINALS[ordinal]! - 1];
  return undefined;
}

/**
 * A line under a heading that points back to it ("## Fonts" then "Bundle them locally"): the heading's
 * title takes the pronoun's place, so the sentence keeps its subject on its own.
 */
export function withHeadingSubjects(text: string): string {
  const lines = text.split('\n');
  let title: string | undefined;
  return lines
    .map((line) => {
      const heading = /^#{1,4}\s+(.{2,40}?)\s*#*$/.exec(line.trim());
      if (heading) {
        title = heading[1]!.replace(/\*\*|[:：]$/g, '').trim();
        return line;
      }
      if (!line.trim()) return line;
      const under = title;
      title = undefined;
      if (!under || /\d/.test(under) || line.split(/\s+/).length > 16) return line;
      // "Fonts" reads as "fonts" mid-sentence; "API keys" keeps its capitals.
      const noun = /^[A-Z][a-z]*(?:\s[a-z]+)*$/.test(under) ? under.toLowerCase() : under;
      return line.replace(/\b(?:them|it|these|those)\b/i, noun);
    })
    .join('\n');
}
