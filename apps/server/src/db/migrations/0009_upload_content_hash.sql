ALTER TABLE "files" ADD COLUMN "content_hash" text;--> statement-breakpoint
CREATE INDEX "files_user_id_content_hash_idx" ON "files" USING btree ("user_id","content_hash");