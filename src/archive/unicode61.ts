// SQLite FTS5's tokenizer `unicode61 remove_diacritics 2` (the SQLite archive's recalls_fts) in JavaScript, for the
// PostgreSQL engine and the query side of --search: the same tokens from the same text, so both engines find the
// same recalls. FTS5 decides by tables of its own, from an older Unicode than Node's (an emoji of Unicode 7 is a
// letter to it, as is every code point its Unicode left unassigned), so the tables below are FTS5's, read from FTS5
// itself: each code point's token between `x` and `y`. test/unit/fts-tokens.test.ts compares these tokens with
// FTS5's for every code point of planes 0 and 1 in several contexts; after an SQLite upgrade that changes them,
// `UPDATE_UNICODE61=1 npx vitest run test/unit/fts-tokens.test.ts` rewrites the tables.
//
// FTS5's rules: a token is a run of token characters (ASCII letters and digits; beyond ASCII its letters, digits,
// private use and unassigned code points, and those combining accents from U+0300 to U+0331 it removes); each
// character is case-folded (`ς` is `σ`), and a Latin letter loses its accents (`é` is `e`; `ø`, `ß`, Greek `ά` and
// Cyrillic `й` keep theirs); other scripts' combining marks part words. A token that folds to nothing is none, and
// one longer than 32,768 bytes is indexed and looked up as its first 32,768.

// unicode61 tables: start
/** The non-ASCII code points that are part of a token, as hex ranges. */
const TOKEN = `
aa b2-b3 b5 b9-ba bc-be c0-d6 d8-f6 f8-2c1 2c6-2d1 2e0-2e4 2ec 2ee 300-304 306-30c 30f 311 31b 323-328 32d-32e
330-331 370-374 376-37d 37f-383 386 388-3f5 3f7-481 48a-559 560-588 58b-58e 590 5c8-5f2 5f5-5ff 605 61c-61d
620-64a 660-669 66e-66f 671-6d3 6d5 6e5-6e6 6ee-6fc 6ff 70e 710 712-72f 74b-7a5 7b1-7ea 7f4-7f5 7fa-815 81a 824
828 82e-82f 83f-858 85c-85d 85f-8e3 8ff 904-939 93d 950 958-961 966-96f 971-980 984-9bb 9bd 9c5-9c6 9c9-9ca
9ce-9d6 9d8-9e1 9e4-9f1 9f4-9f9 9fc-a00 a04-a3b a3d a43-a46 a49-a4a a4e-a50 a52-a6f a72-a74 a76-a80 a84-abb abd
ac6 aca ace-ae1 ae4-aef af2-b00 b04-b3b b3d b45-b46 b49-b4a b4e-b55 b58-b61 b64-b6f b71-b81 b83-bbd bc3-bc5 bc9
bce-bd6 bd8-bf2 bfb-c00 c04-c3d c45 c49 c4e-c54 c57-c61 c64-c7e c80-c81 c84-cbb cbd cc5 cc9 cce-cd4 cd7-ce1
ce4-d01 d04-d3d d45 d49 d4e-d56 d58-d61 d64-d78 d7a-d81 d84-dc9 dcb-dce dd5 dd7 de0-df1 df5-e30 e32-e33 e3b-e3e
e40-e46 e50-e59 e5c-eb0 eb2-eb3 eba ebd-ec7 ece-f00 f20-f33 f40-f70 f88-f8c f98 fbd fcd fdb-102a 103f-1049
1050-1055 105a-105d 1061 1065-1066 106e-1070 1075-1081 108e 1090-1099 10a0-10fa 10fc-135c 1369-138f 139a-13ff
1401-166c 166f-167f 1681-169a 169d-16ea 16ee-1711 1715-1731 1737-1751 1754-1771 1774-17b3 17d7 17dc 17de-17ff
180f-18a8 18aa-191f 192c-192f 193c-193f 1941-1943 1946-19af 19c1-19c7 19ca-19dd 1a00-1a16 1a1c-1a1d 1a20-1a54
1a5f 1a7d-1a7e 1a80-1a9f 1aa7 1aae-1aff 1b05-1b33 1b45-1b59 1b7d-1b7f 1b83-1ba0 1bae-1be5 1bf4-1bfb 1c00-1c23
1c38-1c3a 1c40-1c7d 1c80-1cbf 1cc8-1ccf 1ce9-1cec 1cee-1cf1 1cf5-1dbf 1de7-1dfb 1e00-1fbc 1fbe 1fc2-1fcc
1fd0-1fdc 1fe0-1fec 1ff0-1ffc 1fff 2065-2069 2070-2079 207f-2089 208f-209f 20ba-20cf 20f1-20ff 2102 2107
210a-2113 2115 2119-211d 2124 2126 2128 212a-212d 212f-2139 213c-213f 2145-2149 214e 2150-218f 23f4-23ff
2427-243f 244b-249b 24ea-24ff 2700 2776-2793 2b4d-2b4f 2b5a-2ce4 2ceb-2cee 2cf2-2cf8 2cfd 2d00-2d6f 2d71-2d7e
2d80-2ddf 2e2f 2e3c-2e7f 2e9a 2ef4-2eff 2fd6-2fef 2ffc-2fff 3005-3007 3021-3029 3031-3035 3038-303c 3040-3098
309d-309f 30a1-30fa 30fc-318f 3192-3195 31a0-31bf 31e4-31ff 321f-3229 3248-324f 3251-325f 3280-3289 32b1-32bf
32ff 3400-4dbf 4e00-a48f a4c7-a4fd a500-a60c a610-a66e a67f-a69e a6a0-a6ef a6f8-a6ff a717-a71f a722-a788
a78b-a801 a803-a805 a807-a80a a80c-a822 a82c-a835 a83a-a873 a878-a87f a882-a8b3 a8c5-a8cd a8d0-a8df a8f2-a8f7
a8fb-a925 a930-a946 a954-a95e a960-a97f a984-a9b2 a9ce-a9dd a9e0-aa28 aa37-aa42 aa44-aa4b aa4e-aa5b aa60-aa76
aa7a aa7c-aaaf aab1 aab5-aab6 aab9-aabd aac0 aac2-aadd aae0-aaea aaf2-aaf4 aaf7-abe2 abee-d7ff e000-fb1d
fb1f-fb28 fb2a-fbb1 fbc2-fd3d fd40-fdfb fdfe-fdff fe1a-fe1f fe27-fe2f fe53 fe67 fe6c-fefe ff00 ff10-ff19
ff21-ff3a ff41-ff5a ff66-ffdf ffe7 ffef-fff8 10000-100ff 10103-10136 10140-10178 1018a-1018f 1019c-101cf
101fe-1039e 103a0-103cf 103d1-10856 10858-1091e 10920-1093e 10940-10a00 10a04 10a07-10a0b 10a10-10a37
10a3b-10a3e 10a40-10a4f 10a59-10a7e 10a80-10b38 10b40-10fff 11003-11037 1104e-1107f 11083-110af 110c2-110ff
11103-11126 11135-1113f 11144-1117f 11183-111b2 111c1-111c4 111c9-116aa 116b8-1246f 12474-16f50 16f7f-16f8e
16f93-1cfff 1d0f6-1d0ff 1d127-1d128 1d1de-1d1ff 1d246-1d2ff 1d357-1d6c0 1d6c2-1d6da 1d6dc-1d6fa 1d6fc-1d714
1d716-1d734 1d736-1d74e 1d750-1d76e 1d770-1d788 1d78a-1d7a8 1d7aa-1d7c2 1d7c4-1eeef 1eef2-1efff 1f02c-1f02f
1f094-1f09f 1f0af-1f0b0 1f0bf-1f0c0 1f0d0 1f0e0-1f10f 1f12f 1f16c-1f16f 1f19b-1f1e5 1f203-1f20f 1f23b-1f23f
1f249-1f24f 1f252-1f2ff 1f321-1f32f 1f336 1f37d-1f37f 1f394-1f39f 1f3c5 1f3cb-1f3df 1f3f1-1f3ff 1f43f 1f441
1f4f8 1f4fd-1f4ff 1f53e-1f53f 1f544-1f54f 1f568-1f5fa 1f641-1f644 1f650-1f67f 1f6c6-1f6ff 1f774-e0000
e0002-e001f e0080-e00ff e01f0-10ffff`;

/** Token characters that become an ASCII letter (`c0-c5=a`: À to Å are a) or nothing (`300-304=`). */
const TO_ASCII = `
c0-c5=a c7=c c8-cb=e cc-cf=i d1=n d2-d6=o d9-dc=u dd=y e0-e5=a e7=c e8-eb=e ec-ef=i f1=n f2-f6=o f9-fc=u fd=y
ff=y 100-105=a 106-10d=c 10e-10f=d 112-11b=e 11c-123=g 124-125=h 128-130=i 134-135=j 136-137=k 139-13e=l
143-148=n 14c-151=o 154-159=r 15a-161=s 162-165=t 168-173=u 174-175=w 176-178=y 179-17e=z 17f=s 1a0-1a1=o
1af-1b0=u 1cd-1ce=a 1cf-1d0=i 1d1-1d2=o 1d3-1dc=u 1de-1df=a 1e6-1e7=g 1e8-1e9=k 1ea-1ed=o 1f0=j 1f4-1f5=g
1f8-1f9=n 1fa-1fb=a 200-203=a 204-207=e 208-20b=i 20c-20f=o 210-213=r 214-217=u 218-219=s 21a-21b=t 21e-21f=h
226-227=a 228-229=e 22a-231=o 232-233=y 300-304= 306-30c= 30f= 311= 31b= 323-328= 32d-32e= 330-331= 1e00-1e01=a
1e02-1e07=b 1e08-1e09=c 1e0a-1e13=d 1e14-1e1d=e 1e1e-1e1f=f 1e20-1e21=g 1e22-1e2b=h 1e2c-1e2f=i 1e30-1e35=k
1e36-1e3d=l 1e3e-1e43=m 1e44-1e4b=n 1e4c-1e53=o 1e54-1e57=p 1e58-1e5f=r 1e60-1e69=s 1e6a-1e71=t 1e72-1e7b=u
1e7c-1e7f=v 1e80-1e89=w 1e8a-1e8d=x 1e8e-1e8f=y 1e90-1e95=z 1e96=h 1e97=t 1e98=w 1e99=y 1e9b=s 1ea0-1eb7=a
1eb8-1ec7=e 1ec8-1ecb=i 1ecc-1ee3=o 1ee4-1ef1=u 1ef2-1ef9=y 212a=k 212b=a`;

/** The other token characters that change: `from-to:+d` each is itself plus d (hex), `/2` every second one. */
const SHIFTED = `
b5:+307 c6-d0:+20 d8-de:+20 110-132/2:+1 13f-141/2:+1 14a-166/2:+1 181:+d2 182-184/2:+1 186:+ce 187:+1
189-18a:+cd 18b:+1 18e:+4f 18f:+ca 190:+cb 191:+1 193:+cd 194:+cf 196:+d3 197:+d1 198:+1 19c:+d3 19d:+d5 19f:+d6
1a2-1a4/2:+1 1a6:+da 1a7:+1 1a9:+da 1ac:+1 1ae:+da 1b1-1b2:+d9 1b3-1b5/2:+1 1b7:+db 1b8:+1 1bc:+1 1c4:+2 1c5:+1
1c7:+2 1c8:+1 1ca:+2 1cb:+1 1e0-1ee/2:+1 1f1:+2 1f2:+1 1f6:-61 1f7:-38 1fc-21c/2:+1 220:-82 222-224/2:+1
23a:+2a2b 23b:+1 23d:-a3 23e:+2a28 241:+1 243:-c3 244:+45 245:+47 246-24e/2:+1 370-372/2:+1 376:+1 386:+26
388-38a:+25 38c:+40 38e-38f:+3f 391-3a1:+20 3a3-3ab:+20 3c2:+1 3cf:+8 3d0:-1e 3d1:-19 3d5:-f 3d6:-16
3d8-3ee/2:+1 3f0:-36 3f1:-30 3f4:-3c 3f5:-40 3f7:+1 3f9:-7 3fa:+1 3fd-3ff:-82 400-40f:+50 410-42f:+20
460-480/2:+1 48a-4be/2:+1 4c0:+f 4c1-4cd/2:+1 4d0-526/2:+1 531-556:+30 10a0-10c5:+1c60 10c7:+1c60 10cd:+1c60
1e9e:-1dbf 1efa-1efe/2:+1 1f08-1f0f:-8 1f18-1f1d:-8 1f28-1f2f:-8 1f38-1f3f:-8 1f48-1f4d:-8 1f59-1f5f/2:-8
1f68-1f6f:-8 1f88-1f8f:-8 1f98-1f9f:-8 1fa8-1faf:-8 1fb8-1fb9:-8 1fba-1fbb:-4a 1fbc:-9 1fbe:-1c05 1fc8-1fcb:-56
1fcc:-9 1fd8-1fd9:-8 1fda-1fdb:-64 1fe8-1fe9:-8 1fea-1feb:-70 1fec:-7 1ff8-1ff9:-80 1ffa-1ffb:-7e 1ffc:-9
2126:-1d5d 2132:+1c 2160-216f:+10 2183:+1 2c00-2c2e:+30 2c60:+1 2c62:-29f7 2c63:-ee6 2c64:-29e7 2c67-2c6b/2:+1
2c6d:-2a1c 2c6e:-29fd 2c6f:-2a1f 2c70:-2a1e 2c72:+1 2c75:+1 2c7e-2c7f:-2a3f 2c80-2ce2/2:+1 2ceb-2ced/2:+1
2cf2:+1 a640-a66c/2:+1 a680-a696/2:+1 a722-a72e/2:+1 a732-a76e/2:+1 a779-a77b/2:+1 a77d:-8a04 a77e-a786/2:+1
a78b:+1 a78d:-a528 a790-a792/2:+1 a7a0-a7a8/2:+1 a7aa:-a544 ff21-ff3a:+20 10400-10427:+28`;
// unicode61 tables: end

/** What each code point is in a token: its folded code point (0: nothing), or -1 where it parts tokens. */
interface Tables {
  /** Indexed by BMP code unit. */
  bmp: Int32Array;
  /** Beyond the BMP: the token ranges (start, end, start, end ...) and the code points that change. */
  astral: number[];
  astralFolds: Map<number, number>;
}

let tables: Tables | undefined;

/** Each entry of a table: its hex range and what follows it (`=a`, `:+20`, `/2:-1`). */
function* entries(table: string): Generator<{ from: number; to: number; rest: string }> {
  for (const entry of table.split(/\s+/)) {
    const match = /^([0-9a-f]+)(?:-([0-9a-f]+))?(.*)$/.exec(entry);
    if (!match) continue;
    const from = Number.parseInt(match[1]!, 16);
    yield { from, to: match[2] === undefined ? from : Number.parseInt(match[2], 16), rest: match[3]! };
  }
}

/** The tables decoded, once: a lookup per BMP code unit, ranges and a map beyond. */
function decoded(): Tables {
  if (tables) return tables;
  const bmp = new Int32Array(0x10000).fill(-1);
  for (let c = 0x30; c <= 0x39; c++) bmp[c] = c;
  for (let c = 0x61; c <= 0x7a; c++) bmp[c] = c;
  for (let c = 0x41; c <= 0x5a; c++) bmp[c] = c + 0x20;
  const astral: number[] = [];
  const astralFolds = new Map<number, number>();
  for (const { from, to } of entries(TOKEN)) {
    for (let c = from; c <= Math.min(to, 0xffff); c++) bmp[c] = c;
    if (to > 0xffff) astral.push(Math.max(from, 0x10000), to);
  }
  const ascii = new Set<number>();
  for (const { from, to, rest } of entries(TO_ASCII)) {
    for (let c = from; c <= to; c++) {
      bmp[c] = rest === '=' ? 0 : rest.charCodeAt(1);
      ascii.add(c);
    }
  }
  for (const { from, to, rest } of entries(SHIFTED)) {
    const [, step, sign, delta] = /^(\/2)?:([+-])([0-9a-f]+)$/.exec(rest) ?? [];
    const shift = (sign === '-' ? -1 : 1) * Number.parseInt(delta ?? '0', 16);
    // A run of case pairs may span letters that become ASCII: those keep that.
    for (let c = from; c <= to; c += step ? 2 : 1) {
      if (ascii.has(c)) continue;
      if (c > 0xffff) astralFolds.set(c, c + shift);
      else bmp[c] = c + shift;
    }
  }
  tables = { bmp, astral, astralFolds };
  return tables;
}

/** A code point beyond the BMP as a token holds it, or -1 where it parts tokens. */
function astralOf(t: Tables, code: number): number {
  let lo = 0;
  let hi = t.astral.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (code < t.astral[2 * mid]!) hi = mid - 1;
    else if (code > t.astral[2 * mid + 1]!) lo = mid + 1;
    else return t.astralFolds.get(code) ?? code;
  }
  return -1;
}

/** FTS5 keeps a token's first this-many bytes (FTS5_MAX_TOKEN_SIZE), in the index and in a query alike. */
const MAX_TOKEN_BYTES = 32_768;

/** `token` as FTS5 keeps it: its first 32,768 bytes in UTF-8, cut before a character that would not fit whole. */
function kept(token: string): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most tokens need no count.
  if (token.length * 3 <= MAX_TOKEN_BYTES || Buffer.byteLength(token) <= MAX_TOKEN_BYTES) return token;
  let bytes = 0;
  let end = 0;
  for (const ch of token) {
    const size = ch.length === 2 ? 4 : Buffer.byteLength(ch);
    if (bytes + size > MAX_TOKEN_BYTES) break;
    bytes += size;
    end += ch.length;
  }
  return token.slice(0, end);
}

/** The tokens FTS5's unicode61 tokenizer (remove_diacritics 2) makes of `text`, in one pass. */
export function unicode61Tokens(text: string): string[] {
  const t = decoded();
  const tokens: string[] = [];
  // The token so far, and where the stretch of characters it takes unchanged began (-1: none pending).
  let token = '';
  let from = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let code = unit;
    let to: number;
    let width = 1;
    if (unit < 0xd800 || unit > 0xdfff) to = t.bmp[unit]!;
    else {
      const next = text.charCodeAt(i + 1);
      if (unit < 0xdc00 && next >= 0xdc00 && next <= 0xdfff) {
        code = (unit - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
        width = 2;
        to = astralOf(t, code);
      } else {
        // A lone surrogate reaches SQLite as U+FFFD (UTF-8 has no form for it).
        code = -1;
        to = t.bmp[0xfffd]!;
      }
    }
    if (to < 0) {
      if (from >= 0) token += text.slice(from, i);
      if (token !== '') tokens.push(kept(token));
      token = '';
      from = -1;
    } else {
      if (to === code) {
        if (from < 0) from = i;
      } else {
        if (from >= 0) token += text.slice(from, i);
        from = -1;
        if (to > 0) token += String.fromCodePoint(to);
      }
    }
    i += width - 1;
  }
  if (from >= 0) token += text.slice(from);
  if (token !== '') tokens.push(kept(token));
  return tokens;
}
