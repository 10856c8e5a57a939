CREATE TABLE "preview_renders" (
	"task_id" text NOT NULL,
	"preview_id" text NOT NULL,
	CONSTRAINT "preview_renders_task_id_preview_id_pk" PRIMARY KEY("task_id","preview_id")
);
--> statement-breakpoint
CREATE TABLE "previews" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"project_id" text NOT NULL,
	"task_id" text NOT NULL,
	"script_id" text NOT NULL,
	"variant" integer NOT NULL,
	"segments" jsonb NOT NULL,
	"template_id" text NOT NULL,
	"voice_id" text,
	"music_id" text,
	"caption_id" text,
	"aspect_ratio" text NOT NULL,
	"video_length" integer NOT NULL,
	"language" text,
	"product" jsonb NOT NULL,
	"file_ids" jsonb NOT NULL,
	"res_key" text NOT NULL,
	"file_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "preview_renders" ADD CONSTRAINT "preview_renders_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preview_renders" ADD CONSTRAINT "preview_renders_preview_id_previews_id_fk" FOREIGN KEY ("preview_id") REFERENCES "public"."previews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "previews" ADD CONSTRAINT "previews_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "preview_renders_preview_id_idx" ON "preview_renders" USING btree ("preview_id");--> statement-breakpoint
CREATE UNIQUE INDEX "previews_task_id_script_id_unique" ON "previews" USING btree ("task_id","script_id");--> statement-breakpoint
CREATE INDEX "previews_project_id_idx" ON "previews" USING btree ("project_id");--> statement-breakpoint
-- Previews made before decision "Previews as rows" had no row: a script update or an export replayed the chain of
-- task inputs (decision "Script update chain"). This builds each one's row as that replay saw it, once: every script
-- of a finished link-video task, as last edited by the finished script updates that lead back to it (each update's
-- `taskId` followed through the owner's finished video tasks of the same project, at most 100 tasks, as the replay
-- did), with the link-video task's settings (editorConfig's defaults: 15 s, 9:16; the top-level voice and captions
-- over editorConfig's) and, for each of voice, captions, music and template, the latest update that chose one. A
-- template nobody chose is the preview's turn in templatesFor (look.ts), as the replay computed it. The latest render
-- names the file. Every task of the chain is recorded as a render of its preview, so any of them can still be named.
WITH RECURSIVE finished AS (
	SELECT t.id, t.user_id, t.project_id, t.kind, t.input, t.result, t.finished_at
	FROM tasks t
	WHERE t.status = 'SUCCESS' AND t.kind IN ('link-video', 'script-update') AND t.project_id IS NOT NULL
), chain (update_id, at_id, hops) AS (
	SELECT f.id, f.id, 1 FROM finished f WHERE f.kind = 'script-update'
	UNION ALL
	SELECT c.update_id, p.id, c.hops + 1
	FROM chain c
	JOIN finished cur ON cur.id = c.at_id AND cur.kind = 'script-update'
	JOIN finished p ON p.id = cur.input->>'taskId' AND p.user_id = cur.user_id AND p.project_id = cur.project_id
	WHERE c.hops < 100
), edits AS (
	SELECT DISTINCT ON (u.id) c.at_id AS root_id, u.id, u.input->>'scriptId' AS script_id, u.input, u.result, u.finished_at
	FROM chain c
	JOIN finished r ON r.id = c.at_id AND r.kind = 'link-video'
	JOIN finished u ON u.id = c.update_id
), scripts AS (
	SELECT DISTINCT ON (r.id, s.script->>'scriptId')
		r.id AS task_id, r.user_id, r.project_id, r.input, r.result, r.finished_at,
		s.script->>'scriptId' AS script_id, s.script->'segments' AS segments, (s.n - 1)::integer AS variant
	FROM finished r
	CROSS JOIN LATERAL jsonb_array_elements(
		CASE WHEN jsonb_typeof(r.result->'scriptContentList') = 'array' THEN r.result->'scriptContentList' ELSE '[]'::jsonb END
	) WITH ORDINALITY AS s(script, n)
	WHERE r.kind = 'link-video' AND s.script->>'scriptId' IS NOT NULL
		AND EXISTS (SELECT 1 FROM projects p WHERE p.id = r.project_id AND p.user_id = r.user_id)
	ORDER BY r.id, s.script->>'scriptId', s.n
), made AS (
	SELECT s.*,
		-- Updates in the replay's order: latest finished last (an unfinished time sorts last ascending, so first here).
		last.input AS last_input, last.result AS last_result, last.finished_at AS last_at,
		(SELECT e.input->>'voiceId' FROM edits e WHERE e.root_id = s.task_id AND e.script_id = s.script_id
			AND e.input->>'voiceId' IS NOT NULL ORDER BY e.finished_at DESC, e.id DESC LIMIT 1) AS edit_voice,
		(SELECT e.input->>'captionId' FROM edits e WHERE e.root_id = s.task_id AND e.script_id = s.script_id
			AND e.input->>'captionId' IS NOT NULL ORDER BY e.finished_at DESC, e.id DESC LIMIT 1) AS edit_caption,
		(SELECT e.input->>'musicId' FROM edits e WHERE e.root_id = s.task_id AND e.script_id = s.script_id
			AND e.input->>'musicId' IS NOT NULL ORDER BY e.finished_at DESC, e.id DESC LIMIT 1) AS edit_music,
		(SELECT e.input->>'templateId' FROM edits e WHERE e.root_id = s.task_id AND e.script_id = s.script_id
			AND e.input->>'templateId' IS NOT NULL ORDER BY e.finished_at DESC, e.id DESC LIMIT 1) AS edit_template,
		(SELECT v->>'resKey' FROM jsonb_array_elements(
			CASE WHEN jsonb_typeof(s.result->'previewVideos') = 'array' THEN s.result->'previewVideos' ELSE '[]'::jsonb END
		) v WHERE v->>'scriptId' = s.script_id LIMIT 1) AS made_res_key
	FROM scripts s
	LEFT JOIN LATERAL (
		SELECT e.* FROM edits e WHERE e.root_id = s.task_id AND e.script_id = s.script_id
		ORDER BY e.finished_at DESC, e.id DESC LIMIT 1
	) last ON true
), rows AS (
	SELECT m.*, coalesce(m.last_result->'previewVideos'->0->>'resKey', m.made_res_key) AS res_key
	FROM made m
), inserted AS (
	INSERT INTO previews (id, user_id, project_id, task_id, script_id, variant, segments, template_id, voice_id, music_id,
		caption_id, aspect_ratio, video_length, language, product, file_ids, res_key, file_id, created_at, updated_at)
	SELECT gen_random_uuid()::text, r.user_id, r.project_id, r.task_id, r.script_id, r.variant,
		coalesce(r.last_result->'scriptContentList'->0->'segments', r.last_input->'scriptContents', r.segments),
		coalesce(r.edit_template, r.input->'editorConfig'->>'templateId',
			(CASE WHEN coalesce(r.input->'productOffer'->>'listPrice', '') <> ''
				THEN ARRAY['sale', 'clean-studio', 'bold-ugc', 'minimal-luxury', 'feature-list', 'problem-solution']
				ELSE ARRAY['clean-studio', 'bold-ugc', 'minimal-luxury', 'feature-list', 'problem-solution', 'sale'] END)[r.variant % 6 + 1]),
		coalesce(r.edit_voice, r.input->>'voiceId', r.input->'editorConfig'->>'voiceId'),
		coalesce(r.edit_music, r.input->'editorConfig'->>'musicId'),
		coalesce(r.edit_caption, r.input->>'captionId', r.input->'editorConfig'->>'captionId'),
		coalesce(r.input->'editorConfig'->>'aspectRatio', '9:16'),
		coalesce((r.input->'editorConfig'->>'videoLength')::integer, 15),
		r.input->'editorConfig'->>'language',
		jsonb_strip_nulls(jsonb_build_object(
			'productName', r.input->'productName', 'productDescription', r.input->'productDescription',
			'productBrand', r.input->'productBrand', 'productOffer', r.input->'productOffer', 'productFacts', r.input->'productFacts')),
		r.input->'fileIds', r.res_key, (SELECT f.id FROM files f WHERE f.res_key = r.res_key),
		coalesce(r.finished_at, now()), coalesce(r.last_at, r.finished_at, now())
	FROM rows r
	WHERE r.res_key IS NOT NULL AND jsonb_typeof(r.segments) = 'array' AND jsonb_typeof(r.input->'fileIds') = 'array'
	RETURNING id, task_id, script_id
)
INSERT INTO preview_renders (task_id, preview_id)
SELECT i.task_id, i.id FROM inserted i
UNION
SELECT e.id, i.id FROM inserted i JOIN edits e ON e.root_id = i.task_id AND e.script_id = i.script_id;
