-- The language a user chose with PUT /ver1/users/locale (the reference's nine). Error texts stay
-- English; the choice is kept and shown so that clients reading it back get what they set.
ALTER TABLE users ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'ru', 'pt', 'zh', 'es', 'fr', 'tr', 'de', 'it'));
