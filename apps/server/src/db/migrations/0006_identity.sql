-- Identity (issue 13, M1 and M2; docs/decisions "Identity: issuer and subject" and "An operator's block").
-- A user is keyed by the OpenID issuer and subject, not by the subject alone: google_sub becomes oidc_subject, and
-- rows from before keep a null issuer, which the configured issuer adopts at their next sign-in (their subjects
-- stay unique among themselves). No e-mail is taken as verified until an issuer says so at a sign-in.
ALTER TABLE "users" RENAME COLUMN "google_sub" TO "oidc_subject";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_google_sub_unique";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "oidc_issuer" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_identity_unique" ON "users" USING btree ("oidc_issuer","oidc_subject");--> statement-breakpoint
CREATE UNIQUE INDEX "users_legacy_oidc_subject_unique" ON "users" USING btree ("oidc_subject") WHERE "users"."oidc_issuer" is null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_blocked_inactive_check" CHECK ("users"."blocked_at" is null or "users"."status" = 'INACTIVE');--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_oidc_issuer_check" CHECK ("users"."oidc_issuer" is null or "users"."oidc_subject" is not null);--> statement-breakpoint
-- Every session ends once: one an attacker got through an unverified e-mail (or kept across an operator's
-- INACTIVE) must not outlive this fix. Everyone signs in again.
DELETE FROM "sessions";
