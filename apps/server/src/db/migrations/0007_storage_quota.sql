CREATE TABLE "stored_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"size" bigint NOT NULL,
	"pending" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_objects_kind_check" CHECK ("stored_objects"."kind" in ('file', 'upload', 'page')),
	CONSTRAINT "stored_objects_size_check" CHECK ("stored_objects"."size" >= 0)
);
--> statement-breakpoint
ALTER TABLE "stored_objects" ADD CONSTRAINT "stored_objects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_objects_user_id_idx" ON "stored_objects" USING btree ("user_id") INCLUDE ("size");--> statement-breakpoint
CREATE INDEX "stored_objects_kind_created_at_idx" ON "stored_objects" USING btree ("kind","created_at");--> statement-breakpoint
-- The files stored before the quota: each file at its recorded size; its thumbnail, whose size was never recorded,
-- at 0 (a few kilobytes each, uncounted until the file is deleted).
INSERT INTO "stored_objects" ("key", "user_id", "kind", "size", "created_at")
	SELECT "res_key", "user_id", 'file', "size", "created_at" FROM "files" WHERE "res_key" IS NOT NULL
	ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "stored_objects" ("key", "user_id", "kind", "size", "created_at")
	SELECT "thumb_key", "user_id", 'file', 0, "created_at" FROM "files" WHERE "thumb_key" IS NOT NULL
	ON CONFLICT DO NOTHING;
