CREATE TABLE "batch_rows" (
	"id" text PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"user_id" text NOT NULL,
	"position" integer NOT NULL,
	"link" text NOT NULL,
	"overrides" jsonb NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"project_id" text,
	"task_id" text,
	"preview_task_id" text,
	"export_task_id" text,
	"error" jsonb,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_rows_status_check" CHECK ("batch_rows"."status" in ('waiting', 'analysing', 'rendering', 'exporting', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"options" jsonb NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "batches_status_check" CHECK ("batches"."status" in ('running', 'finished', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "batch_rows" ADD CONSTRAINT "batch_rows_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_rows" ADD CONSTRAINT "batch_rows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batch_rows_batch_id_position_unique" ON "batch_rows" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "batch_rows_open_idx" ON "batch_rows" USING btree ("created_at") WHERE "batch_rows"."status" in ('waiting', 'analysing', 'rendering', 'exporting');--> statement-breakpoint
CREATE INDEX "batch_rows_user_id_status_idx" ON "batch_rows" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "batches_user_id_created_at_idx" ON "batches" USING btree ("user_id","created_at");