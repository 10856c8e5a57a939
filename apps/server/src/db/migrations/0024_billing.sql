CREATE TABLE "billing_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"offer_code" text NOT NULL,
	"kind" text NOT NULL,
	"credits" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"failed_at" timestamp with time zone,
	CONSTRAINT "billing_checkouts_kind_check" CHECK ("billing_checkouts"."kind" in ('pack', 'plan'))
);
--> statement-breakpoint
CREATE TABLE "billing_customers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_customers_stripe_customer_id_unique" UNIQUE("stripe_customer_id")
);
--> statement-breakpoint
CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text,
	"user_id" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "billing_offers" (
	"code" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"credits" integer NOT NULL,
	"stripe_price_id" text NOT NULL,
	"expires_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "billing_offers_kind_check" CHECK ("billing_offers"."kind" in ('pack', 'plan')),
	CONSTRAINT "billing_offers_credits_check" CHECK ("billing_offers"."credits" > 0)
);
--> statement-breakpoint
CREATE TABLE "billing_purchases" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"offer_code" text NOT NULL,
	"credits" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"payment_intent_id" text,
	"lot_id" bigint NOT NULL,
	"reversed_amount" integer DEFAULT 0 NOT NULL,
	"taken_back" integer DEFAULT 0 NOT NULL,
	"owed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_purchases_kind_check" CHECK ("billing_purchases"."kind" in ('pack', 'plan')),
	CONSTRAINT "billing_purchases_reversal_check" CHECK ("billing_purchases"."reversed_amount" between 0 and "billing_purchases"."amount" and "billing_purchases"."taken_back" + "billing_purchases"."owed" <= "billing_purchases"."credits")
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"offer_code" text,
	"status" text NOT NULL,
	"period_end" timestamp with time zone,
	"ends_at_period_end" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_customers" ADD CONSTRAINT "billing_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_purchases" ADD CONSTRAINT "billing_purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_checkouts_user_id_idx" ON "billing_checkouts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "billing_events_received_at_idx" ON "billing_events" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_offers_stripe_price_id_unique" ON "billing_offers" USING btree ("stripe_price_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_purchases_payment_intent_id_unique" ON "billing_purchases" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "billing_purchases_user_id_idx" ON "billing_purchases" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_user_id_idx" ON "billing_subscriptions" USING btree ("user_id");