CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"project_id" text,
	"name" text NOT NULL,
	"res_key" text,
	"type" text,
	"format" text,
	"mime" text,
	"size" bigint DEFAULT 0 NOT NULL,
	"width" integer,
	"height" integer,
	"duration" double precision,
	"thumb_key" text,
	"source" text NOT NULL,
	"source_url" text,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_res_key_unique" UNIQUE("res_key"),
	CONSTRAINT "files_type_check" CHECK ("files"."type" is null or "files"."type" in ('image', 'video')),
	CONSTRAINT "files_source_check" CHECK ("files"."source" in ('url', 'local', 'generated')),
	CONSTRAINT "files_status_check" CHECK ("files"."status" in ('draft', 'completed', 'failed')),
	CONSTRAINT "files_completed_check" CHECK ("files"."status" <> 'completed' or ("files"."res_key" is not null and "files"."type" is not null))
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"project_id" text,
	"input" jsonb NOT NULL,
	"status" text NOT NULL,
	"progress" text,
	"result" jsonb,
	"error" jsonb,
	"idempotency_key" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"cancel_requested" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "tasks_status_check" CHECK ("tasks"."status" in ('SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE')),
	CONSTRAINT "tasks_attempts_check" CHECK ("tasks"."attempts" >= 0 and "tasks"."max_attempts" >= 1)
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_user_id_created_at_idx" ON "files" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "files_project_id_idx" ON "files" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_user_id_idempotency_key_unique" ON "tasks" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "tasks_user_id_created_at_idx" ON "tasks" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "tasks_claimable_idx" ON "tasks" USING btree ("created_at") WHERE "tasks"."status" in ('SUBMITTED', 'IN_PROGRESS');