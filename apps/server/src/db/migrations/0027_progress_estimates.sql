ALTER TABLE "tasks" ADD COLUMN "workload" text;--> statement-breakpoint
CREATE INDEX "tasks_finished_by_workload_idx" ON "tasks" USING btree ("kind",coalesce("workload", ''),"finished_at") WHERE "tasks"."status" = 'SUCCESS' and "tasks"."batch_row_id" is null;--> statement-breakpoint
-- A charged task keeps its workload too (decision "Progress estimates"): the function as 0019 left it, with the
-- task's `workload` among the columns it inserts.
CREATE OR REPLACE FUNCTION points_charge_many(p_items jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
	item jsonb;
	extra jsonb;
	entry points_ledger;
	further points_ledger;
	charged integer;
	short jsonb;
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
				INSERT INTO tasks (id, user_id, kind, project_id, input, status, idempotency_key, max_attempts, batch_row_id, workload)
				SELECT t.id, t.user_id, t.kind, t.project_id, t.input, t.status, t.idempotency_key, t.max_attempts, t.batch_row_id, t.workload
				FROM jsonb_populate_record(NULL::tasks, item->'task') t
				RETURNING to_jsonb(tasks.*) INTO task_row;
			END IF;
			entry := NULL;
			SELECT * INTO entry FROM points_charge(item->>'userId', item->>'sku', (item->>'count')::integer,
				item->>'operationType', item->>'taskId', item->>'key', (item->>'now')::timestamptz);
			charged := coalesce(-entry.points_change, 0);
			FOR extra IN SELECT e.value FROM jsonb_array_elements(coalesce(item->'also', '[]'::jsonb)) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
				BEGIN
					further := NULL;
					SELECT * INTO further FROM points_charge(item->>'userId', extra->>'sku', (extra->>'count')::integer,
						extra->>'operationType', item->>'taskId', (item->>'key') || ':' || (extra->>'sku'), (item->>'now')::timestamptz);
					charged := charged + coalesce(-further.points_change, 0);
				EXCEPTION WHEN SQLSTATE 'RS402' THEN
					GET STACKED DIAGNOSTICS v_detail = PG_EXCEPTION_DETAIL;
					short := v_detail::jsonb;
					RAISE EXCEPTION 'not enough credits' USING ERRCODE = 'RS402',
						DETAIL = json_build_object('needed', charged + (short->>'needed')::integer,
							'available', charged + (short->>'available')::integer)::text;
				END;
			END LOOP;
			results := results || jsonb_build_array(jsonb_build_object(
				'entry', CASE WHEN entry.id IS NULL THEN NULL ELSE to_jsonb(entry) END, 'task', task_row, 'charged', charged));
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT, v_detail = PG_EXCEPTION_DETAIL;
			results := results || jsonb_build_array(jsonb_build_object('code', v_state, 'message', v_message, 'detail', v_detail));
		END;
	END LOOP;
	RETURN results;
END $$;
