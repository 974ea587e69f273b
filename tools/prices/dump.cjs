// dump.cjs prints, as JSON on stdout, what canopy's pricing package needs
// from genai-prices (the package pinned in package.json):
//
//   node dump.cjs data    the providers, their models' match rules and prices
//   node dump.cjs cases   test cases: usages priced by genai-prices' own calcPrice
//
// go generate ./pricing runs both (pricing/internal/genprices).
'use strict';

const gp = require('@pydantic/genai-prices');
const pkg = JSON.parse(require('fs').readFileSync(require('path').join(__dirname, 'node_modules/@pydantic/genai-prices/package.json'), 'utf8'));

// The price keys an estimate from canopy's usage can reach: its token
// counts are input (with cache reads and writes), output, cache read and
// cache write; one request per message. Every other unit (audio, images,
// searches, ...) has no count in a session, so prices nothing.
const keys = {
  input_mtok: 'input',
  output_mtok: 'output',
  cache_read_mtok: 'cacheRead',
  cache_write_mtok: 'cacheWrite',
  requests_kcount: 'requestsKcount',
};

// secondsOfDay is genai-prices' reading of a time-of-day constraint
// ("HH:MM:SS[.frac](Z|±HH:MM)") as seconds after midnight UTC.
function secondsOfDay(s) {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) throw new Error(`time-of-day constraint ${JSON.stringify(s)}`);
  const [, h, mi, se, frac = '', z, sign, oh = '00', om = '00'] = m;
  const t = Number(h) * 3600 + Number(mi) * 60 + Number(se) + Number(`0.${frac}`);
  const off = (Number(oh) * 60 + Number(om)) * 60;
  return (t - (z === 'Z' ? 0 : sign === '+' ? off : -off) + 86400) % 86400;
}

function priceSet(p, constraint) {
  const out = {};
  if (constraint) {
    if (constraint.type === 'start_date') out.startDate = constraint.start_date;
    else if (constraint.type === 'time_of_date') {
      out.startSec = secondsOfDay(constraint.start_time);
      out.endSec = secondsOfDay(constraint.end_time);
    } else throw new Error(`constraint ${JSON.stringify(constraint)}`);
  }
  for (const [k, v] of Object.entries(p)) {
    if (keys[k]) out[keys[k]] = v;
  }
  return out;
}

function data(providers) {
  return {
    version: pkg.version,
    providers: providers.map((p) => ({
      id: p.id,
      providerMatch: p.provider_match,
      modelMatch: p.model_match,
      fallbacks: p.fallback_model_providers,
      models: p.models.map((m) => ({
        id: m.id,
        match: m.match,
        prices: Array.isArray(m.prices)
          ? m.prices.map((c) => priceSet(c.prices, c.constraint))
          : [priceSet(m.prices)],
      })),
    })),
  };
}

// A name a match rule accepts, to look the model up by; undefined when
// none is easy to make (a regex, an and).
function nameFor(m) {
  if (m.equals !== undefined) return m.equals;
  if (m.starts_with !== undefined) return m.starts_with + '-x';
  if (m.ends_with !== undefined) return 'x-' + m.ends_with;
  if (m.contains !== undefined) return 'x-' + m.contains + '-x';
  if (m.or) for (const s of m.or) { const n = nameFor(s); if (n !== undefined) return n; }
  return undefined;
}

// Usages in canopy's terms: input without the cache reads and writes.
const small = { input: 1200, output: 500, cacheRead: 2000, cacheWrite: 300 };
const big = { input: 150000, output: 4000, cacheRead: 80000, cacheWrite: 20000 }; // past 200k tiers
const plain = { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 };
const defaultAt = '2026-01-01T00:00:00Z';

function priced(provider, model, u, at) {
  const usage = {
    input_tokens: u.input + u.cacheRead + u.cacheWrite,
    output_tokens: u.output,
    cache_read_tokens: u.cacheRead,
    cache_write_tokens: u.cacheWrite,
  };
  const r = gp.calcPrice(usage, model, { providerId: provider || undefined, timestamp: new Date(at) });
  return {
    provider, model, usage: u, at,
    price: r ? r.total_price : null,
    modelId: r ? r.model.id : '',
  };
}

function cases(providers) {
  const out = [];
  const hhmm = (sec) => new Date(Date.UTC(2026, 0, 1) + sec * 1000).toISOString();
  for (const p of providers) {
    for (const m of p.models) {
      const name = nameFor(m.match);
      if (name === undefined) continue;
      out.push(priced(p.id, name, small, defaultAt));
      const tiered = JSON.stringify(m.prices).includes('"tiers"');
      if (tiered) out.push(priced(p.id, name, big, defaultAt));
      if (!Array.isArray(m.prices)) continue;
      for (const c of m.prices) {
        const k = c.constraint;
        if (!k) continue;
        const times = k.type === 'start_date'
          ? [`${k.start_date}T00:00:00Z`, new Date(Date.parse(`${k.start_date}T00:00:00Z`) - 1000).toISOString()]
          : [hhmm(secondsOfDay(k.start_time) + 60), hhmm(secondsOfDay(k.end_time) + 60)];
        for (const at of times) out.push(priced(p.id, name, tiered ? big : small, at));
      }
    }
  }
  // The names Claude Code and Codex sessions record, and the ways a
  // lookup can go: no provider, an unknown one, a fallback provider,
  // LiteLLM's prefixes, dates written without dashes, unknown models.
  const named = [
    ['anthropic', 'claude-sonnet-4-5-20250929'], ['anthropic', 'claude-opus-4-5-20251101'],
    ['anthropic', 'claude-haiku-4-5-20251001'], ['anthropic', 'claude-sonnet-4-20250514'],
    ['anthropic', 'claude-opus-4-6'], ['anthropic', 'claude-opus-5-20270101'], ['anthropic', '<synthetic>'],
    ['openai', 'gpt-5-codex'], ['openai', 'gpt-5'], ['openai', 'gpt-5.1-codex-max'], ['openai', 'gpt-4o-20240806'],
    ['openai', 'o3'], ['openai', 'gpt-5.4-2026-03-05'], ['openai', 'gpt-5-mini-2025-08-07'],
    ['', 'claude-sonnet-4-5'], ['', 'gpt-5-codex'], ['', 'mistral-large-latest'], ['', 'no-such-model'],
    ['azure', 'gpt-4o'], ['azure', 'claude-sonnet-4-5'], ['google', 'claude-sonnet-4-5'],
    ['litellm', 'anthropic/claude-sonnet-4-5'], ['litellm', 'claude-sonnet-4-5'], ['LiteLLM', 'openai/gpt-5'],
    ['Anthropic ', ' Claude-Sonnet-4-5 '], ['my-anthropic-proxy', 'claude-sonnet-4-5'],
    ['ollama', 'llama3'], ['openai', 'no-such-model'], ['anthropic', 'claude-2.1'],
  ];
  for (const [p, m] of named) {
    for (const u of [small, big, plain]) out.push(priced(p, m, u, defaultAt));
    out.push(priced(p, m, small, '2026-06-01T12:00:00Z'));
  }
  return { version: pkg.version, cases: out };
}

async function main() {
  const providers = await gp.waitForUpdate(); // the data bundled in the package
  const what = process.argv[2];
  if (what === 'data') process.stdout.write(JSON.stringify(data(providers)));
  else if (what === 'cases') process.stdout.write(JSON.stringify(cases(providers), null, 0).replace(/\},\{"provider"/g, '},\n{"provider"'));
  else throw new Error('usage: node dump.cjs data|cases');
}

main().catch((e) => {
  console.error(`dump.cjs: ${e.stack || e}`);
  process.exit(1);
});
