-- How a key's requests are signed: '3commas' (the reference's payloads, the default) or 'tl1'
-- (method, path, query, body digest and a timestamp; see docs/signing.md). A tl1 key refuses the
-- 3Commas payloads, which a captured signature for another method or body could reuse.
ALTER TABLE api_keys ADD COLUMN signing text NOT NULL DEFAULT '3commas' CHECK (signing IN ('3commas', 'tl1'));
