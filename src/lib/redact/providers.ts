/**
 * Provider token formats with a shape of their own (a fixed prefix, a length,
 * a charset), for the services secretlint's preset does not know. Coverage is
 * checked against gitleaks' published rule set; the expressions are ours.
 * Each has a literal `hint` that must occur in a string before its regex runs.
 */
import type { Sink } from './key-value.js';
import { exactFragments, trieSource } from './trie-regex.js';

export interface ProviderRule {
  rule: string;
  /** A literal every match contains (checked with `includes` first: cheap), or a quick regex. */
  hint: string | RegExp;
  /** The whole match is the secret, or group 1 when there is one. */
  regex: RegExp;
}

/** Not part of a longer token. */
const B = String.raw`(?<![A-Za-z0-9_-])`;
const E = String.raw`(?![A-Za-z0-9_-])`;
const r = (source: string, flags = ''): RegExp => new RegExp(source, `g${flags}`);

export const PROVIDER_RULES: ProviderRule[] = [
  { rule: 'age-secret-key', hint: 'AGE-SECRET-KEY-1', regex: r(String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{50,90}${E}`) },
  { rule: 'anthropic-key', hint: 'sk-ant-', regex: r(String.raw`${B}sk-ant-(?:admin01|api03|oat01|ort01|[a-z]{3,6}\d{2})-[A-Za-z0-9_-]{80,120}${E}`) },
  { rule: 'openai-key', hint: 'T3BlbkFJ', regex: r(String.raw`${B}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}${E}`) },
  { rule: 'telegram-bot-token', hint: ':AA', regex: r(String.raw`(?<![\d:])\d{8,10}:AA[A-Za-z0-9_-]{33}${E}`) },
  { rule: 'discord-webhook', hint: '/api/webhooks/', regex: r(String.raw`https?://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/\d{15,21}/([A-Za-z0-9_-]{60,72})`) },
  { rule: 'discord-bot-token', hint: /[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\./, regex: r(String.raw`${B}[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}${E}`) },
  { rule: 'mailgun-key', hint: /key-[0-9a-f]{8}/, regex: r(String.raw`${B}key-[0-9a-f]{32}${E}`) },
  { rule: 'mailgun-key', hint: 'pubkey-', regex: r(String.raw`${B}pubkey-[0-9a-f]{32}${E}`) },
  { rule: 'mailchimp-key', hint: /[0-9a-f]-us\d/, regex: r(String.raw`${B}[0-9a-f]{32}-us\d{1,2}${E}`) },
  { rule: 'postman-key', hint: 'PMAK-', regex: r(String.raw`${B}PMAK-[0-9a-f]{24}-[0-9a-f]{34}${E}`) },
  { rule: 'okta-token', hint: 'SSWS', regex: r(String.raw`\bSSWS[ \t]+([A-Za-z0-9_-]{30,60})${E}`) },
  { rule: 'slack-token', hint: 'xapp-', regex: r(String.raw`${B}xapp-\d-[A-Z0-9]{9,12}-\d{10,14}-[a-f0-9]{40,80}${E}`) },
  { rule: 'slack-token', hint: 'xoxe', regex: r(String.raw`${B}xoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{100,170}${E}`) },
  { rule: 'slack-token', hint: /xox[abposr]-/, regex: r(String.raw`${B}xox[abposr]-[0-9A-Za-z-]{20,}${E}`) },
  { rule: 'gitlab-token', hint: /gl(?:pat|ptt|dt|rt|cbt|imt|soat|ft|ffct|agent|oas)-/, regex: r(String.raw`${B}(?:glpat|glptt|gldt|glrt|glcbt|glimt|glsoat|glft|glffct|glagent|gloas)-[A-Za-z0-9_.-]{20,}${E}`) },
  { rule: 'gitlab-token', hint: 'GR1348941', regex: r(String.raw`${B}GR1348941[A-Za-z0-9_-]{20,}${E}`) },
  { rule: 'github-token', hint: /gh[pousr]_|github_pat_/, regex: r(String.raw`${B}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})${E}`) },
  { rule: 'stripe-key', hint: /[sr]k_(?:live|test)_|whsec_/, regex: r(String.raw`${B}(?:[sr]k_(?:live|test)_|whsec_)[A-Za-z0-9]{24,}${E}`) },
  { rule: 'npm-token', hint: 'npm_', regex: r(String.raw`${B}npm_[A-Za-z0-9]{36}${E}`) },
  { rule: 'pypi-token', hint: 'pypi-', regex: r(String.raw`${B}pypi-AgE[A-Za-z0-9_-]{50,}${E}`) },
  { rule: 'rubygems-token', hint: 'rubygems_', regex: r(String.raw`${B}rubygems_[0-9a-f]{48}${E}`) },
  { rule: 'clojars-token', hint: 'CLOJARS_', regex: r(String.raw`${B}CLOJARS_[a-z0-9]{60}${E}`, 'i') },
  { rule: 'doppler-token', hint: /dp\.(?:pt|st|sa|ct|scim|audit)\./, regex: r(String.raw`${B}dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_-]{40,}${E}`) },
  { rule: 'digitalocean-token', hint: '_v1_', regex: r(String.raw`${B}do[opr]_v1_[a-f0-9]{64}${E}`) },
  { rule: 'flyio-token', hint: 'fo1_', regex: r(String.raw`${B}fo1_[A-Za-z0-9_-]{43}${E}`) },
  { rule: 'flyio-token', hint: /fm[12][ar]?_/, regex: r(String.raw`${B}fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}`) },
  { rule: 'heroku-key', hint: 'HRKU-', regex: r(String.raw`${B}HRKU-(?:AA)?[A-Za-z0-9_-]{58,}${E}`) },
  { rule: 'terraform-token', hint: '.atlasv1.', regex: r(String.raw`${B}[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}${E}`) },
  { rule: 'vault-token', hint: /hv[sbr]\./, regex: r(String.raw`${B}hv[sbr]\.[A-Za-z0-9_-]{24,}${E}`) },
  { rule: 'airtable-token', hint: /pat[A-Za-z0-9]{14}\./, regex: r(String.raw`${B}pat[A-Za-z0-9]{14}\.[a-f0-9]{64}${E}`) },
  { rule: 'atlassian-token', hint: 'ATATT', regex: r(String.raw`${B}ATATT3[A-Za-z0-9_=-]{150,250}${E}`) },
  { rule: 'atlassian-token', hint: 'ATCTT', regex: r(String.raw`${B}ATCTT3[A-Za-z0-9_=-]{150,250}${E}`) },
  { rule: 'dynatrace-token', hint: /dt0[a-z]\d/, regex: r(String.raw`${B}dt0[a-z]\d{2}\.[A-Z0-9]{24}\.[A-Z0-9]{64}${E}`) },
  { rule: 'easypost-key', hint: /EZ[AT]K/, regex: r(String.raw`${B}EZ[AT]K[A-Za-z0-9]{54}${E}`) },
  { rule: 'frameio-token', hint: 'fio-u-', regex: r(String.raw`${B}fio-u-[A-Za-z0-9_=-]{64}${E}`) },
  { rule: 'huggingface-token', hint: /hf_|api_org_/, regex: r(String.raw`${B}(?:hf_[A-Za-z0-9]{34,}|api_org_[A-Za-z0-9]{34})${E}`) },
  { rule: 'infracost-key', hint: 'ico-', regex: r(String.raw`${B}ico-[A-Za-z0-9]{32}${E}`) },
  { rule: 'mapbox-token', hint: 'sk.eyJ', regex: r(String.raw`${B}sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}${E}`) },
  { rule: 'newrelic-key', hint: /NR(?:AK|II|AA|JS)-/, regex: r(String.raw`${B}NR(?:AK|II|AA|JS)-[A-Za-z0-9_-]{19,42}${E}`) },
  { rule: 'octopus-key', hint: 'API-', regex: r(String.raw`${B}API-(?=[A-Z]*\d)[A-Z0-9]{26,32}${E}`) },
  { rule: 'openshift-token', hint: 'sha256~', regex: r(String.raw`${B}sha256~[A-Za-z0-9_-]{43}${E}`) },
  { rule: 'perplexity-key', hint: 'pplx-', regex: r(String.raw`${B}pplx-[A-Za-z0-9]{48}${E}`) },
  { rule: 'planetscale-token', hint: 'pscale_', regex: r(String.raw`${B}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,64}${E}`) },
  { rule: 'prefect-key', hint: 'pnu_', regex: r(String.raw`${B}pnu_[A-Za-z0-9]{36}${E}`) },
  { rule: 'pulumi-token', hint: 'pul-', regex: r(String.raw`${B}pul-[a-f0-9]{40}${E}`) },
  { rule: 'readme-key', hint: 'rdme_', regex: r(String.raw`${B}rdme_[a-z0-9]{70}${E}`) },
  { rule: 'scalingo-token', hint: 'tk-us-', regex: r(String.raw`${B}tk-us-[A-Za-z0-9_-]{48}${E}`) },
  { rule: 'brevo-key', hint: 'xkeysib-', regex: r(String.raw`${B}xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}${E}`) },
  { rule: 'sentry-token', hint: /sntry[su]_/, regex: r(String.raw`${B}(?:sntrys_eyJ[A-Za-z0-9+/=_-]{60,}|sntryu_[a-f0-9]{64})${E}`) },
  { rule: 'shippo-token', hint: 'shippo_', regex: r(String.raw`${B}shippo_(?:live|test)_[a-fA-F0-9]{40}${E}`) },
  { rule: 'shopify-token', hint: /shp(?:at|ca|pa|ss)_/, regex: r(String.raw`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`) },
  { rule: 'sourcegraph-token', hint: 'sgp_', regex: r(String.raw`${B}sgp_(?:[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40}${E}`) },
  { rule: 'square-token', hint: /sq0(?:atp|csp|idp)-/, regex: r(String.raw`${B}sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,43}${E}`) },
  { rule: 'square-token', hint: 'EAAA', regex: r(String.raw`${B}EAAA[A-Za-z0-9_-]{60}${E}`) },
  { rule: 'twilio-key', hint: /SK[0-9a-f]{32}/, regex: r(String.raw`${B}SK[0-9a-f]{32}${E}`) },
  { rule: 'typeform-token', hint: 'tfp_', regex: r(String.raw`${B}tfp_[A-Za-z0-9_.=-]{59}${E}`) },
  { rule: 'yandex-key', hint: 'AQVN', regex: r(String.raw`${B}AQVN[A-Za-z0-9_-]{35,38}${E}`) },
  { rule: 'yandex-key', hint: /t1\.[A-Za-z0-9_-]+={0,2}\./, regex: r(String.raw`${B}t1\.[A-Z0-9a-z_-]+={0,2}\.[A-Z0-9a-z_-]{86}={0,2}`) },
  { rule: 'alibaba-key', hint: 'LTAI', regex: r(String.raw`${B}LTAI[A-Za-z0-9]{20}${E}`) },
  { rule: 'aws-bedrock-key', hint: 'ABSK', regex: r(String.raw`${B}ABSK[A-Za-z0-9+/]{109,269}={0,2}`) },
  { rule: 'azure-client-secret', hint: 'Q~', regex: r(String.raw`${B}[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}${E}`) },
  { rule: 'cloudflare-origin-key', hint: 'v1.0-', regex: r(String.raw`${B}v1\.0-[a-f0-9]{24}-[a-f0-9]{146}${E}`) },
  { rule: 'duffel-token', hint: 'duffel_', regex: r(String.raw`${B}duffel_(?:test|live)_[A-Za-z0-9_=-]{43}${E}`) },
  { rule: 'dropbox-token', hint: /sl\.[A-Za-z0-9_=-]{130}/, regex: r(String.raw`${B}sl\.[A-Za-z0-9_=-]{130,160}${E}`) },
  { rule: 'facebook-token', hint: /EAA[MC]/, regex: r(String.raw`${B}EAA[MC][A-Za-z0-9]{100,}${E}`) },
  { rule: 'flutterwave-key', hint: /FLW(?:SECK|PUBK)/, regex: r(String.raw`${B}FLW(?:SECK|PUBK)(?:_TEST)?-[a-h0-9]{32}-X${E}`) },
  { rule: 'harness-token', hint: /[ps]at\.[A-Za-z0-9_-]{22}\./, regex: r(String.raw`${B}(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}${E}`) },
  { rule: 'maxmind-key', hint: '_mmk', regex: r(String.raw`${B}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${E}`) },
  { rule: 'teams-webhook', hint: 'webhook.office.com', regex: r(String.raw`https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[^\s"'<>]{40,300}`) },
  { rule: 'slack-webhook', hint: 'hooks.slack.com', regex: r(String.raw`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`) },
  { rule: 'settlemint-token', hint: /sm_(?:pat|aat|sat)_/, regex: r(String.raw`${B}sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}${E}`) },
  { rule: 'onepassword-key', hint: 'A3-', regex: r(String.raw`${B}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${E}`) },
  { rule: 'onepassword-token', hint: 'ops_eyJ', regex: r(String.raw`${B}ops_eyJ[A-Za-z0-9+/_=-]{100,}`) },
  { rule: 'artifactory-key', hint: 'AKCp', regex: r(String.raw`${B}AKCp[A-Za-z0-9]{69}${E}`) },
  { rule: 'clickhouse-key', hint: '4b1d', regex: r(String.raw`${B}4b1d[A-Za-z0-9]{38}${E}`) },
  { rule: 'defined-networking-key', hint: 'dnkey-', regex: r(String.raw`${B}dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}${E}`) },
  { rule: 'linear-key', hint: /lin_(?:api|oauth)_/, regex: r(String.raw`${B}lin_(?:api|oauth)_[A-Za-z0-9]{40}${E}`) },
  { rule: 'notion-token', hint: 'ntn_', regex: r(String.raw`${B}ntn_[A-Za-z0-9]{40,50}${E}`) },
  { rule: 'groq-key', hint: 'gsk_', regex: r(String.raw`${B}gsk_[A-Za-z0-9]{48,56}${E}`) },
  { rule: 'xai-key', hint: 'xai-', regex: r(String.raw`${B}xai-[A-Za-z0-9]{70,90}${E}`) },
  { rule: 'replicate-token', hint: 'r8_', regex: r(String.raw`${B}r8_[A-Za-z0-9]{37}${E}`) },
  { rule: 'databricks-token', hint: 'dapi', regex: r(String.raw`${B}dapi[a-f0-9]{32}(?:-\d)?${E}`) },
  { rule: 'grafana-token', hint: /gl(?:c|sa)_/, regex: r(String.raw`${B}(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`) },
  { rule: 'grafana-token', hint: 'eyJrIjoi', regex: r(String.raw`${B}eyJrIjoi[A-Za-z0-9]{70,400}={0,2}`) },
  { rule: 'sendgrid-key', hint: 'SG.', regex: r(String.raw`${B}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}${E}`) },
  { rule: 'tailscale-key', hint: 'tskey-', regex: r(String.raw`${B}tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}${E}`) },
  { rule: 'vercel-token', hint: /vc[pikar]_/, regex: r(String.raw`${B}vc[pikar]_[A-Za-z0-9]{24,}${E}`) },
  { rule: 'figma-token', hint: 'figd_', regex: r(String.raw`${B}figd_[A-Za-z0-9_-]{40,}${E}`) },
  { rule: 'docker-token', hint: 'dckr_', regex: r(String.raw`${B}dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}${E}`) },
  { rule: 'cloudflare-token', hint: /cf(?:ut|at|k)_/, regex: r(String.raw`${B}cf(?:ut|at|k)_[A-Za-z0-9]{40,}${E}`) },
  { rule: 'azure-storage-key', hint: 'AccountKey=', regex: r(String.raw`AccountKey=([A-Za-z0-9+/]{40,100}={0,2})`) },
  { rule: 'sentry-dsn', hint: '.sentry.io', regex: r(String.raw`https?://([a-f0-9]{32})@[a-z0-9.-]*\.sentry\.io`) },
  { rule: 'google-oauth-secret', hint: 'GOCSPX-', regex: r(String.raw`${B}GOCSPX-[A-Za-z0-9_-]{28}${E}`) },
  { rule: 'google-oauth-token', hint: 'ya29.', regex: r(String.raw`${B}ya29\.[A-Za-z0-9_-]{30,}${E}`) },
  { rule: 'google-refresh-token', hint: '1//0', regex: r(String.raw`${B}1//0[A-Za-z0-9_-]{40,}${E}`) },
  { rule: 'jfrog-token', hint: 'cmVmd', regex: r(String.raw`${B}cmVmd[A-Za-z0-9]{59}${E}`) },
  { rule: 'contentful-token', hint: 'CFPAT-', regex: r(String.raw`${B}CFPAT-[A-Za-z0-9_-]{43}${E}`) },
  { rule: 'buildkite-token', hint: 'bkua_', regex: r(String.raw`${B}bkua_[a-f0-9]{40}${E}`) },
  { rule: 'netlify-token', hint: 'nfp_', regex: r(String.raw`${B}nfp_[A-Za-z0-9]{36,40}${E}`) },
  { rule: 'supabase-token', hint: /sb(?:p|_secret)_/, regex: r(String.raw`${B}sb(?:p|_secret)_[A-Za-z0-9_-]{32,}${E}`) },
  { rule: 'render-key', hint: 'rnd_', regex: r(String.raw`${B}rnd_[A-Za-z0-9]{28,}${E}`) },
  { rule: 'adafruit-key', hint: 'aio_', regex: r(String.raw`${B}aio_[A-Za-z0-9]{28}${E}`) },
  { rule: 'langsmith-key', hint: 'lsv2_', regex: r(String.raw`${B}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}${E}`) },
  { rule: 'posthog-key', hint: /ph[xc]_/, regex: r(String.raw`${B}ph[xc]_[A-Za-z0-9]{43}${E}`) },
  { rule: 'snyk-token', hint: 'snyk_', regex: r(String.raw`${B}snyk_(?:uat|sat)\.[a-z0-9]{8}\.[A-Za-z0-9_-]{20,}${E}`) },
];

/** A regex for a set of literals built as a trie (`sk-(?:ant-|…)`), stopping at the shortest literal: where a hint may start is enough. */
function trieRegex(literals: string[]): RegExp {
  return new RegExp(trieSource(literals.map(exactFragments), true));
}

/**
 * Every rule's hint in two regexes (literal hints as a trie, the others as one
 * alternation). The hints are specific enough to be rare, so one pass each
 * tells whether a string can hold a provider token at all; only then is each
 * rule's own hint checked. (A hundred `includes` per string were the costliest
 * part of redaction.)
 */
const LITERAL_HINTS_G = new RegExp(trieRegex([...new Set(PROVIDER_RULES.map((r) => r.hint).filter((h): h is string => typeof h === 'string'))]).source, 'g');
const REGEX_HINTS_G = new RegExp([...new Set(PROVIDER_RULES.map((r) => r.hint).filter((h): h is RegExp => typeof h !== 'string').map((h) => h.source))].join('|'), 'g');

/**
 * Runs the provider formats over a string: the hints found in it (one pass
 * each for literal and regex hints) pick the rules to run, so a long tool
 * output that holds one `sk-ant-` runs one rule, not a hundred.
 */
export function detectProviders(s: string, sink: Sink): void {
  // One pass of each regex collects the hints (a `test` first made a string that held one be read three or four times).
  const literals = hintsIn(s, LITERAL_HINTS_G);
  const texts = hintsIn(s, REGEX_HINTS_G);
  if (!literals.length && !texts.length) return;
  for (const { rule, hint, regex } of PROVIDER_RULES) {
    // The trie stops at the shortest literal, so a rule's hint is found as a prefix of it; a regex hint matches its own text.
    const hinted = typeof hint === 'string' ? literals.some((l) => hint.startsWith(l)) && s.includes(hint) : texts.some((t) => hint.test(t));
    if (!hinted) continue;
    regex.lastIndex = 0;
    for (const m of s.matchAll(regex)) sink(rule, m[1] ?? m[0]);
  }
}

/**
 * The distinct texts a hint regex (global, never empty) matches in a string, left to right like
 * `matchAll`, which would copy the regex on every call: this runs on every string of a session.
 */
function hintsIn(s: string, regex: RegExp): string[] {
  const found = new Set<string>();
  regex.lastIndex = 0;
  // Hints may overlap (`AhSG.atlasv1.` holds `SG.` and `.atlasv1.`): the next search starts one past a match's start, not at its end.
  for (let m = regex.exec(s); m !== null; m = regex.exec(s)) {
    found.add(m[0]);
    regex.lastIndex = m.index + 1;
  }
  return [...found];
}
