// Owns the vendor token rules taken from secretlint's recommended preset (maintained upstream): each
// rule is run as secretlint runs it, on one text, with a small synchronous context that collects what
// it reports. A finding is narrowed to the secret itself (a URL keeps its user and host).
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { URL_USERINFO_PREFILTER } from './own-rules.js';
import { isPlaceholder } from './secret-value.js';

export interface RuleMatch {
  kind: string;
  start: number;
  end: number;
}

interface Report {
  range: readonly [number, number];
}
type Translate = (messageId: string, props?: Record<string, unknown>) => string;
interface RuleContext {
  report(descriptor: Report): void;
  createTranslator(messages: unknown): Translate;
  ignore(descriptor: unknown): void;
}
interface RuleHandlers {
  file?: (source: { content: string; filePath: string; ext: string; contentType: string }) => unknown;
}
interface RuleCreator {
  meta: { id: string };
  create(context: RuleContext, options: Record<string, unknown>): RuleHandlers;
}

/**
 * Our kind name and pre-filter hints for each rule of the preset (a new rule upstream fails a test until
 * named here). A hint shared with another rule (`secret`, `://`) costs the scan nothing more.
 */
export const VENDOR_RULES: Record<
  string,
  { kind: string; hints: string[]; kindByMessage?: Record<string, string>; prefilter?: RegExp }
> = {
  '@secretlint/secretlint-rule-aws': { kind: 'aws-secret-key', hints: ['secret'] },
  '@secretlint/secretlint-rule-npm': { kind: 'npm-token', hints: ['npm_', '_authtoken'] },
  '@secretlint/secretlint-rule-slack': {
    kind: 'slack-token',
    hints: ['xoxb-', 'xoxp-', 'xapp-', 'xoxa-', 'xoxo-', 'xoxr-', 'hooks.slack.com'],
    kindByMessage: { IncomingWebhook: 'slack-webhook' },
  },
  '@secretlint/secretlint-rule-basicauth': { kind: 'url-password', hints: ['://'], prefilter: URL_USERINFO_PREFILTER },
  '@secretlint/secretlint-rule-openai': { kind: 'openai-key', hints: ['t3blbkfj'] },
  '@secretlint/secretlint-rule-anthropic': { kind: 'anthropic-key', hints: ['sk-ant-'] },
  '@secretlint/secretlint-rule-groq': { kind: 'groq-key', hints: ['gsk_'] },
  '@secretlint/secretlint-rule-huggingface': { kind: 'huggingface-token', hints: ['hf_'] },
  '@secretlint/secretlint-rule-linear': { kind: 'linear-key', hints: ['lin_api_'] },
  '@secretlint/secretlint-rule-notion': { kind: 'notion-token', hints: ['ntn_'] },
  '@secretlint/secretlint-rule-privatekey': { kind: 'private-key', hints: ['private key'] },
  '@secretlint/secretlint-rule-sendgrid': { kind: 'sendgrid-key', hints: ['sg.'] },
  '@secretlint/secretlint-rule-shopify': { kind: 'shopify-token', hints: ['shppa_', 'shpca_', 'shpat_', 'shpss_'] },
  '@secretlint/secretlint-rule-github': {
    kind: 'github-token',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  },
  '@secretlint/secretlint-rule-gitlab': { kind: 'gitlab-token', hints: ['glpat-'] },
  '@secretlint/secretlint-rule-grafana': { kind: 'grafana-token', hints: ['glc_', 'glsa_'] },
  '@secretlint/secretlint-rule-1password': { kind: '1password-token', hints: ['ops_ey'] },
  '@secretlint/secretlint-rule-database-connection-string': {
    kind: 'url-password',
    hints: ['://'],
    prefilter: URL_USERINFO_PREFILTER,
  },
  '@secretlint/secretlint-rule-hashicorp-vault': { kind: 'vault-token', hints: ['hvs.', 'hvb.', 'hvr.'] },
  '@secretlint/secretlint-rule-vercel': { kind: 'vercel-token', hints: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'] },
  '@secretlint/secretlint-rule-databricks': { kind: 'databricks-token', hints: ['dapi'] },
  '@secretlint/secretlint-rule-docker': { kind: 'docker-token', hints: ['dckr_pat_'] },
  '@secretlint/secretlint-rule-figma': { kind: 'figma-token', hints: ['figd_'] },
};
/** Rules that look at file names or comment directives, not at the text of a message. */
export const VENDOR_RULES_NOT_RUN = new Set([
  '@secretlint/secretlint-rule-gcp',
  '@secretlint/secretlint-rule-filter-comments',
]);

export const presetRuleIds = (): string[] =>
  (recommendedPreset.rules as unknown as RuleCreator[]).map((rule) => rule.meta.id);

interface Collected {
  messageId: string;
  props: Record<string, unknown> | undefined;
  range: readonly [number, number];
}

let collecting: Collected[] = [];
let lastMessageId = '';
let lastProps: Record<string, unknown> | undefined;
const context: RuleContext = {
  report: (descriptor) => collecting.push({ messageId: lastMessageId, props: lastProps, range: descriptor.range }),
  createTranslator: () => (messageId, props) => {
    lastMessageId = messageId;
    lastProps = props;
    return messageId;
  },
  ignore: () => undefined,
};

export interface VendorRule {
  id: string;
  kind: string;
  hints: string[];
  run(text: string, out: RuleMatch[]): void;
}

const URL_USERINFO = /^(?:[a-z][a-z0-9+.-]*:)+\/\/[^\s:/@]+:/i;

/** The secret inside a reported span: the value the rule named, of a URL only its password, of a key block its body. */
function narrow(text: string, found: Collected): [number, number] {
  let [start, end] = found.range;
  const named = Object.values(found.props ?? {}).filter((v): v is string => typeof v === 'string' && v.length >= 8);
  for (const value of named.sort((a, b) => b.length - a.length)) {
    const at = text.indexOf(value, start);
    if (at >= 0 && at <= end) {
      [start, end] = [at, at + value.length];
      break;
    }
  }
  const span = text.slice(start, end);
  if (span.startsWith('-----BEGIN')) {
    // A key block keeps its BEGIN and END lines, which say what was there.
    const body = span.indexOf('-----', 10) + 5;
    const endLine = span.lastIndexOf('-----END');
    return [start + body, endLine > body ? start + endLine : end];
  }
  const userinfo = URL_USERINFO.exec(span);
  if (userinfo) {
    const afterUser = start + userinfo[0].length;
    const authority = /^[^\s/?#]*/.exec(text.slice(afterUser, end))![0];
    const hostAt = authority.lastIndexOf('@');
    if (hostAt > 0) return [afterUser, afterUser + hostAt];
  }
  return [start, end];
}

function loadVendorRules(): VendorRule[] {
  const rules: VendorRule[] = [];
  for (const creator of recommendedPreset.rules as unknown as RuleCreator[]) {
    const id = creator.meta.id;
    const named = VENDOR_RULES[id];
    if (!named || VENDOR_RULES_NOT_RUN.has(id)) continue;
    const handlers = creator.create(context, {});
    const file = handlers.file;
    if (!file) continue;
    rules.push({
      id,
      kind: named.kind,
      hints: named.hints,
      run(text, out) {
        if (named.prefilter && !named.prefilter.test(text)) return;
        collecting = [];
        file({ content: text, filePath: 'message.txt', ext: '.txt', contentType: 'text' });
        for (const found of collecting) {
          const [start, end] = narrow(text, found);
          const kind = named.kindByMessage?.[found.messageId] ?? named.kind;
          if (end > start && !(kind === 'url-password' && isPlaceholder(text.slice(start, end))))
            out.push({ kind, start, end });
        }
        collecting = [];
      },
    });
  }
  return rules;
}

export const vendorRules: VendorRule[] = loadVendorRules();
