CREATE TABLE "brand_kits" (
	"user_id" text PRIMARY KEY NOT NULL,
	"logo_res_key" text,
	"primary_color" text NOT NULL,
	"secondary_color" text NOT NULL,
	"font_id" text NOT NULL,
	"call_to_action" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brand_kits_colors_check" CHECK ("brand_kits"."primary_color" ~ '^#[0-9a-f]{6}$' and "brand_kits"."secondary_color" ~ '^#[0-9a-f]{6}$'),
	CONSTRAINT "brand_kits_font_id_check" CHECK ("brand_kits"."font_id" in ('noto-sans', 'noto-sans-black', 'noto-serif'))
);
--> statement-breakpoint
ALTER TABLE "brand_kits" ADD CONSTRAINT "brand_kits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_kits" ADD CONSTRAINT "brand_kits_logo_res_key_files_res_key_fk" FOREIGN KEY ("logo_res_key") REFERENCES "public"."files"("res_key") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "brand_kits_logo_res_key_idx" ON "brand_kits" USING btree ("logo_res_key");