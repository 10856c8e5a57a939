CREATE TABLE "points_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"total_points" integer DEFAULT 0 NOT NULL,
	"available_points" integer DEFAULT 0 NOT NULL,
	"used_points" integer DEFAULT 0 NOT NULL,
	"expired_points" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "points_accounts_available_check" CHECK ("points_accounts"."available_points" >= 0),
	CONSTRAINT "points_accounts_used_check" CHECK ("points_accounts"."used_points" >= 0),
	CONSTRAINT "points_accounts_expired_check" CHECK ("points_accounts"."expired_points" >= 0),
	CONSTRAINT "points_accounts_total_check" CHECK ("points_accounts"."total_points" = "points_accounts"."available_points" + "points_accounts"."used_points" + "points_accounts"."expired_points")
);
--> statement-breakpoint
CREATE TABLE "points_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"reference_id" text NOT NULL,
	"operation_type" text NOT NULL,
	"points_change" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"task_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_ledger_operation_type_check" CHECK ("points_ledger"."operation_type" in ('RECHARGE', 'SIGNUP', 'REFERRAL_REWARD', 'SUBSCRIPTION_PLAN', 'PROMOTION', 'ADJUSTMENT', 'REFUND', 'REFUND_TASK', 'DEDUCTION', 'LINK_TO_VIDEO', 'TEMPLATE_TO_VIDEO', 'TEXT_TO_VIDEO', 'IMAGE_TO_VIDEO', 'TEXT_TO_IMAGE', 'VIRTUAL_TRY_ON', 'AI_BACKGROUND', 'EXTEND_IMAGE', 'UPSCALE_IMAGE', 'EXPIRATION')),
	CONSTRAINT "points_ledger_points_change_check" CHECK ("points_ledger"."points_change" <> 0)
);
--> statement-breakpoint
CREATE TABLE "points_ledger_lots" (
	"ledger_id" bigint NOT NULL,
	"lot_id" bigint NOT NULL,
	"points_change" integer NOT NULL,
	CONSTRAINT "points_ledger_lots_ledger_id_lot_id_pk" PRIMARY KEY("ledger_id","lot_id")
);
--> statement-breakpoint
CREATE TABLE "points_lots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_lots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"operation_type" text NOT NULL,
	"amount" integer NOT NULL,
	"remaining" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_lots_operation_type_check" CHECK ("points_lots"."operation_type" in ('RECHARGE', 'SIGNUP', 'REFERRAL_REWARD', 'SUBSCRIPTION_PLAN', 'PROMOTION', 'ADJUSTMENT', 'REFUND', 'REFUND_TASK', 'DEDUCTION', 'LINK_TO_VIDEO', 'TEMPLATE_TO_VIDEO', 'TEXT_TO_VIDEO', 'IMAGE_TO_VIDEO', 'TEXT_TO_IMAGE', 'VIRTUAL_TRY_ON', 'AI_BACKGROUND', 'EXTEND_IMAGE', 'UPSCALE_IMAGE', 'EXPIRATION')),
	CONSTRAINT "points_lots_remaining_check" CHECK ("points_lots"."remaining" >= 0 and "points_lots"."remaining" <= "points_lots"."amount")
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"sku_code" text PRIMARY KEY NOT NULL,
	"price" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prices_sku_code_check" CHECK ("prices"."sku_code" in ('imageGen', 'imageGenV2', 'imageTryOn', 'imageBg', 'extendImg', 'imageEnhance', 'link2V_15s', 'link2V_30s', 'link2V_45s', 'videoTemplate_basic', 'videoTemplate_pro', 't2Video_std_5s', 't2Video_std_10s', 't2Video_pro_5s', 't2Video_pro_10s', 'img2Video_std_5s', 'img2Video_std_10s', 'img2Video_pro_5s', 'img2Video_pro_10s')),
	CONSTRAINT "prices_price_check" CHECK ("prices"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"id" text PRIMARY KEY NOT NULL,
	"inviter_user_id" text NOT NULL,
	"invitee_user_id" text NOT NULL,
	"reward_points" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referrals_invitee_user_id_unique" UNIQUE("invitee_user_id"),
	CONSTRAINT "referrals_reward_points_check" CHECK ("referrals"."reward_points" >= 0),
	CONSTRAINT "referrals_not_self_check" CHECK ("referrals"."inviter_user_id" <> "referrals"."invitee_user_id")
);
--> statement-breakpoint
ALTER TABLE "invite_codes" DROP CONSTRAINT "invite_codes_uses_check";--> statement-breakpoint
DROP INDEX "invite_codes_owner_user_id_idx";--> statement-breakpoint
ALTER TABLE "invite_codes" ALTER COLUMN "max_uses" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "points_accounts" ADD CONSTRAINT "points_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_ledger" ADD CONSTRAINT "points_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_ledger_lots" ADD CONSTRAINT "points_ledger_lots_ledger_id_points_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."points_ledger"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_ledger_lots" ADD CONSTRAINT "points_ledger_lots_lot_id_points_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."points_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_lots" ADD CONSTRAINT "points_lots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_inviter_user_id_users_id_fk" FOREIGN KEY ("inviter_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_invitee_user_id_users_id_fk" FOREIGN KEY ("invitee_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "points_ledger_user_id_idempotency_key_unique" ON "points_ledger" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "points_ledger_refund_task_unique" ON "points_ledger" USING btree ("task_id") WHERE "points_ledger"."operation_type" = 'REFUND_TASK';--> statement-breakpoint
CREATE INDEX "points_ledger_task_id_idx" ON "points_ledger" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "points_ledger_user_id_created_at_idx" ON "points_ledger" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "points_ledger_lots_lot_id_idx" ON "points_ledger_lots" USING btree ("lot_id");--> statement-breakpoint
CREATE INDEX "points_lots_spendable_idx" ON "points_lots" USING btree ("user_id","expires_at") WHERE "points_lots"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "points_lots_expiring_idx" ON "points_lots" USING btree ("expires_at") WHERE "points_lots"."remaining" > 0 and "points_lots"."expires_at" is not null;--> statement-breakpoint
CREATE INDEX "referrals_inviter_user_id_created_at_idx" ON "referrals" USING btree ("inviter_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invite_codes_owner_user_id_unique" ON "invite_codes" USING btree ("owner_user_id");--> statement-breakpoint
ALTER TABLE "invite_codes" ADD CONSTRAINT "invite_codes_uses_check" CHECK ("invite_codes"."uses" >= 0 and ("invite_codes"."max_uses" is null or "invite_codes"."uses" <= "invite_codes"."max_uses"));--> statement-breakpoint
-- Default prices of one output of each SKU code; the operator changes them with `npm run admin -- prices set`.
INSERT INTO "prices" ("sku_code", "price") VALUES
	('imageGen', 4), ('imageGenV2', 6), ('imageTryOn', 8), ('imageBg', 2), ('extendImg', 3), ('imageEnhance', 2),
	('link2V_15s', 30), ('link2V_30s', 50), ('link2V_45s', 70),
	('videoTemplate_basic', 20), ('videoTemplate_pro', 40),
	('t2Video_std_5s', 20), ('t2Video_std_10s', 35), ('t2Video_pro_5s', 35), ('t2Video_pro_10s', 60),
	('img2Video_std_5s', 20), ('img2Video_std_10s', 35), ('img2Video_pro_5s', 35), ('img2Video_pro_10s', 60);
--> statement-breakpoint
-- The ledger's two writing primitives; modules/points/ledger.ts is their only caller and holds the rest of the
-- rules. They live here so that a charge, the hot path, is one round trip: inside a function each statement
-- sees what committed before the account lock was granted, as separate statements in a transaction would.
--
-- points_post writes one ledger row with the lot changes it is made of (its points_change is their sum), moves
-- the lots' remaining credits and the account's figures by the given deltas; it answers the row, or no row
-- (writing nothing) when the user already has a row with this idempotency key.
CREATE FUNCTION points_post(
	p_user_id text, p_reference_id text, p_operation_type text, p_idempotency_key text, p_task_id text,
	p_created_at timestamptz, p_lot_ids bigint[], p_lot_changes integer[],
	p_total integer, p_available integer, p_used integer, p_expired integer
) RETURNS SETOF points_ledger LANGUAGE plpgsql AS $$
DECLARE
	entry points_ledger;
BEGIN
	INSERT INTO points_ledger (user_id, reference_id, operation_type, points_change, idempotency_key, task_id, created_at)
	VALUES (p_user_id, p_reference_id, p_operation_type, (SELECT sum(c) FROM unnest(p_lot_changes) AS c), p_idempotency_key,
		p_task_id, p_created_at)
	ON CONFLICT (user_id, idempotency_key) DO NOTHING
	RETURNING * INTO entry;
	IF entry.id IS NULL THEN
		RETURN;
	END IF;
	INSERT INTO points_ledger_lots (ledger_id, lot_id, points_change)
	SELECT entry.id, u.lot_id, u.change FROM unnest(p_lot_ids, p_lot_changes) AS u(lot_id, change);
	UPDATE points_lots SET remaining = remaining + u.change
	FROM unnest(p_lot_ids, p_lot_changes) AS u(lot_id, change) WHERE points_lots.id = u.lot_id;
	UPDATE points_accounts SET total_points = total_points + p_total, available_points = available_points + p_available,
		used_points = used_points + p_used, expired_points = expired_points + p_expired
	WHERE user_id = p_user_id;
	RETURN NEXT entry;
END $$;
--> statement-breakpoint
-- points_charge charges p_count outputs of a SKU at its current price: it locks the account, answers the first
-- row of a replayed key (SQLSTATE RS409 if that key was for something else), then draws from the unexpired lots,
-- earliest expiry first, never-expiring last. Answers no row for a free SKU. Not enough credits: SQLSTATE RS402
-- with {needed, available} as JSON in the detail; unknown SKU: RS404.
CREATE FUNCTION points_charge(
	p_user_id text, p_sku_code text, p_count integer, p_operation_type text, p_task_id text, p_idempotency_key text,
	p_now timestamptz
) RETURNS SETOF points_ledger LANGUAGE plpgsql AS $$
DECLARE
	unit_price integer;
	needed integer;
	still_needed integer;
	taken integer;
	lot record;
	lot_ids bigint[] := '{}';
	lot_changes integer[] := '{}';
	original points_ledger;
BEGIN
	SELECT price INTO unit_price FROM prices WHERE sku_code = p_sku_code;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'unknown SKU %', p_sku_code USING ERRCODE = 'RS404';
	END IF;
	PERFORM 1 FROM points_accounts WHERE user_id = p_user_id FOR UPDATE;
	SELECT * INTO original FROM points_ledger WHERE user_id = p_user_id AND idempotency_key = p_idempotency_key;
	IF FOUND THEN
		IF original.operation_type <> p_operation_type OR original.task_id IS DISTINCT FROM p_task_id THEN
			RAISE EXCEPTION 'idempotency key % names another operation', p_idempotency_key USING ERRCODE = 'RS409';
		END IF;
		RETURN NEXT original;
		RETURN;
	END IF;
	needed := unit_price * p_count;
	IF needed = 0 THEN
		RETURN;
	END IF;
	still_needed := needed;
	FOR lot IN
		SELECT id, remaining FROM points_lots
		WHERE user_id = p_user_id AND remaining > 0 AND (expires_at IS NULL OR expires_at > p_now)
		ORDER BY expires_at ASC NULLS LAST, id
	LOOP
		EXIT WHEN still_needed = 0;
		taken := least(still_needed, lot.remaining);
		lot_ids := lot_ids || lot.id;
		lot_changes := lot_changes || -taken;
		still_needed := still_needed - taken;
	END LOOP;
	IF still_needed > 0 THEN
		RAISE EXCEPTION 'not enough credits' USING ERRCODE = 'RS402',
			DETAIL = json_build_object('needed', needed, 'available', needed - still_needed)::text;
	END IF;
	RETURN QUERY SELECT * FROM points_post(p_user_id, p_task_id, p_operation_type, p_idempotency_key, p_task_id, p_now,
		lot_ids, lot_changes, 0, -needed, needed, 0);
END $$;
