/**
 * A deterministic synthetic corpus for the search benchmark: Zipf-distributed words from a large
 * made-up vocabulary plus common technical terms, some tool calls with JSON arguments and some
 * Chinese text, so FTS queries meet realistic posting-list sizes (very common to very rare).
 */

/** mulberry32: a small seeded PRNG, so every run searches the same corpus. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TECH = (
  'the error file test build deploy server client request response config cache database query ' +
  'index token model agent session memory docker kubernetes python typescript node function ' +
  'module package import export async await promise stream buffer socket timeout retry network ' +
  'proxy gateway telegram discord slack cron schedule backup restore migrate schema column ' +
  'table trigger search fts5 sqlite postgres redis queue worker thread process signal kill ' +
  'zebrafish notes meeting invoice budget report summary draft review merge branch commit'
).split(' ');
const SYLLABLES = 'ka ro mi tu sen va lo pre qui dax nor bel fi zu ten gor pla vik sha mon'.split(
  ' ',
);
const CJK =
  '数据库 搜索 会话 消息 压缩 归档 模型 工具 调用 错误 文件 测试 部署 服务器 缓存 索引 记忆'.split(
    ' ',
  );

/** Vocabulary in rank order: technical words first (most frequent), then made-up words. */
export function vocabulary(size = 20_000) {
  const next = random(7);
  const words = new Set(TECH);
  while (words.size < size) {
    const length = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

/** Samples ranks with probability ∝ 1/rank (Zipf, s = 1) through a cumulative table. */
export function zipfSampler(size, next) {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let rank = 0; rank < size; rank++) {
    total += 1 / (rank + 1);
    cumulative[rank] = total;
  }
  return () => {
    const target = next() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

/** A message generator: `make(seq)` returns one ChatMessage of 8–40 words. */
export function messageFactory(words, seed = 11) {
  const next = random(seed);
  const rank = zipfSampler(words.length, next);
  const sentence = (count) => {
    const out = [];
    for (let i = 0; i < count; i++) out.push(words[rank()]);
    return out.join(' ');
  };
  const chinese = () => {
    let text = '';
    for (let i = 0; i < 5; i++) text += CJK[Math.floor(next() * CJK.length)];
    return text;
  };
  return (seq) => {
    const text = sentence(8 + Math.floor(next() * 33));
    switch (seq % 4) {
      case 0:
        return { role: 'user', content: seq % 20 === 0 ? `${chinese()} ${text}` : text };
      case 1: {
        const args = JSON.stringify({ query: sentence(3), path: `/srv/${words[rank()]}.txt` });
        const call = {
          id: `call_${seq}`,
          type: 'function',
          function: { name: 'search_files', arguments: args },
        };
        return { role: 'assistant', content: text, tool_calls: [call] };
      }
      case 2:
        return {
          role: 'tool',
          content: text,
          tool_call_id: `call_${seq - 1}`,
          name: 'search_files',
        };
      default:
        return { role: 'assistant', content: text };
    }
  };
}

/** ~200 queries in four groups: common words, mid-frequency, rare words, two-word and CJK. */
export function queries(words) {
  const next = random(23);
  const pick = (from, to) => words[from + Math.floor(next() * (to - from))];
  const groups = { common: [], middle: [], rare: [], phrase: [], cjk: [] };
  for (let i = 0; i < 50; i++) groups.common.push(pick(0, 40));
  for (let i = 0; i < 40; i++) groups.middle.push(pick(500, 2_000));
  for (let i = 0; i < 60; i++) groups.rare.push(pick(10_000, words.length));
  for (let i = 0; i < 40; i++) groups.phrase.push(`${pick(0, 100)} ${pick(100, 3_000)}`);
  const cjk = [
    '数据库',
    '服务器',
    '搜索会话',
    '压缩归档',
    '模型工具',
    '消息',
    '索引缓存',
    '错误文件',
  ];
  for (let i = 0; i < 10; i++) groups.cjk.push(cjk[i % cjk.length]);
  return groups;
}
