-- Bytes of documents kept by an application over its life, removed ones included: with
-- APPLICATION_DOCUMENT_QUOTA_MB (stored at once) it bounds remove-and-upload churn at three times
-- the quota (docs/decisions/0073).
ALTER TABLE applications ADD COLUMN documents_uploaded_bytes bigint NOT NULL DEFAULT 0;
