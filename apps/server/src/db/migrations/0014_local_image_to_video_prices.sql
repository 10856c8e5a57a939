ALTER TABLE "prices" DROP CONSTRAINT "prices_sku_code_check";--> statement-breakpoint
ALTER TABLE "prices" ADD CONSTRAINT "prices_sku_code_check" CHECK ("prices"."sku_code" in ('imageGen', 'imageGenV2', 'imageTryOn', 'imageBg', 'extendImg', 'imageEnhance', 'link2V_15s', 'link2V_30s', 'link2V_45s', 'videoTemplate_basic', 'videoTemplate_pro', 't2Video_std_5s', 't2Video_std_10s', 't2Video_pro_5s', 't2Video_pro_10s', 'img2Video_std_5s', 'img2Video_std_10s', 'img2Video_pro_5s', 'img2Video_pro_10s', 'img2VideoLocal_std_5s', 'img2VideoLocal_std_10s', 'img2VideoLocal_pro_5s', 'img2VideoLocal_pro_10s'));--> statement-breakpoint
-- Image to video by the local engine (a camera move over the still, when no vendor model is configured) is priced
-- on its own and lower than a vendor's (decision "Image-to-video price"); the operator changes it with
-- `npm run admin -- prices set`.
INSERT INTO "prices" ("sku_code", "price") VALUES
	('img2VideoLocal_std_5s', 4), ('img2VideoLocal_std_10s', 6), ('img2VideoLocal_pro_5s', 6), ('img2VideoLocal_pro_10s', 10);
