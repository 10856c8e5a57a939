ALTER TABLE "tasks" ADD COLUMN "batch_row_id" text;--> statement-breakpoint
-- The group commit's task insert (0004_group_commit.sql) keeps the batch row a charged task advances (decision "Batch").
CREATE OR REPLACE FUNCTION points_charge_many(p_items jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	item jsonb;
	entry points_ledger;
	task_row jsonb;
	results jsonb := '[]'::jsonb;
	v_state text;
	v_message text;
	v_detail text;
BEGIN
	FOR item IN SELECT e.value FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
		BEGIN
			task_row := NULL;
			IF item ? 'task' THEN
				INSERT INTO tasks (id, user_id, kind, project_id, input, status, idempotency_key, max_attempts, batch_row_id)
				SELECT t.id, t.user_id, t.kind, t.project_id, t.input, t.status, t.idempotency_key, t.max_attempts, t.batch_row_id
				FROM jsonb_populate_record(NULL::tasks, item->'task') t
				RETURNING to_jsonb(tasks.*) INTO task_row;
			END IF;
			entry := NULL;
			SELECT * INTO entry FROM points_charge(item->>'userId', item->>'sku', (item->>'count')::integer,
				item->>'operationType', item->>'taskId', item->>'key', (item->>'now')::timestamptz);
			results := results || jsonb_build_array(jsonb_build_object(
				'entry', CASE WHEN entry.id IS NULL THEN NULL ELSE to_jsonb(entry) END, 'task', task_row));
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT, v_detail = PG_EXCEPTION_DETAIL;
			results := results || jsonb_build_array(jsonb_build_object('code', v_state, 'message', v_message, 'detail', v_detail));
		END;
	END LOOP;
	RETURN results;
END $$;
