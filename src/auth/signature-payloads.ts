/**
 * The strings real 3Commas clients sign (see docs/signing.md). A request is accepted when any
 * candidate verifies. Candidates that leave out a non-empty body are marked, so that strict keys
 * can refuse them.
 */

export interface SignedRequest {
  /** The request target exactly as received: path, then optionally ? and the raw query. */
  rawUrl: string;
  /** The raw body bytes as received (empty when there is no body). */
  body: Buffer;
}

export interface PayloadCandidate {
  payload: Buffer;
  /** The text before the body, or the whole payload when it has no body. */
  head: string;
  includesBody: boolean;
  coversBody: boolean;
}

/** Candidates in the order clients most often sign, each built only if the ones before failed. */
export function* payloadCandidates(request: SignedRequest): Generator<PayloadCandidate> {
  const questionMark = request.rawUrl.indexOf('?');
  const path = questionMark === -1 ? request.rawUrl : request.rawUrl.slice(0, questionMark);
  const query = questionMark === -1 ? '' : request.rawUrl.slice(questionMark + 1);
  const hasBody = request.body.length > 0;
  const pathAndQuery = query === '' ? path : `${path}?${query}`;

  const texts: Array<[() => string, boolean]> = [];
  if (hasBody) texts.push([() => (query === '' ? `${path}?` : pathAndQuery), true], [() => pathAndQuery, true]);
  texts.push([() => pathAndQuery, false]);
  if (query === '') {
    texts.push([() => `${path}?`, false]);
  } else {
    texts.push([() => `${path}?${strictlyReencoded(query, true)}`, false]);
    texts.push([() => `${path}?${strictlyReencoded(query, false)}`, false]);
    texts.push([() => `${path}?${query.split('&').sort().join('&')}`, false]);
  }

  const seen = new Set<string>();
  for (const [build, withBody] of texts) {
    const text = build();
    const key = `${withBody ? 'B' : '-'}${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const head = Buffer.from(text, 'utf8');
    yield {
      payload: withBody ? Buffer.concat([head, request.body]) : head,
      head: text,
      includesBody: withBody,
      coversBody: withBody || !hasBody,
    };
  }
}

/**
 * Percent-decodes each key and value (+ as space) and encodes them again leaving only RFC 3986
 * unreserved characters bare, order kept. With `indexArrays`, repeated `k[]` keys become `k[0]`,
 * `k[1]` (how qs writes arrays); without, they stay `k[]` (a client that signs
 * `qs.stringify({'k[]': 7})` and sends `k[]=7`).
 */
export function strictlyReencoded(query: string, indexArrays: boolean): string {
  const arrayCounters = new Map<string, number>();
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      let key = decodeComponent(equals === -1 ? part : part.slice(0, equals));
      const value = equals === -1 ? '' : decodeComponent(part.slice(equals + 1));
      if (indexArrays && key.endsWith('[]')) {
        const stem = key.slice(0, -2);
        const index = arrayCounters.get(stem) ?? 0;
        arrayCounters.set(stem, index + 1);
        key = `${stem}[${index}]`;
      }
      return `${encodeUnreserved(key)}=${encodeUnreserved(value)}`;
    })
    .join('&');
}

function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function encodeUnreserved(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
