CREATE TABLE "presenters" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"file_id" text,
	"res_key" text NOT NULL,
	"name" text NOT NULL,
	"gender" text NOT NULL,
	"languages" text[] NOT NULL,
	"voice_id" text,
	"consent_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "presenters_gender_check" CHECK ("presenters"."gender" in ('female', 'male')),
	CONSTRAINT "presenters_owner_check" CHECK (("presenters"."user_id" is null and "presenters"."file_id" is null) or ("presenters"."user_id" is not null and "presenters"."file_id" is not null and "presenters"."consent_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "presenters" ADD CONSTRAINT "presenters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presenters" ADD CONSTRAINT "presenters_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "presenters_user_id_idx" ON "presenters" USING btree ("user_id");