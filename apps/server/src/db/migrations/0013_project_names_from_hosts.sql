-- Projects made before decision "Projects named after the product" were named after their link's host ("127.0.0.1",
-- "amazon.com", "www.amazon.com"). A project whose name is exactly that host, with or without "www.", takes its
-- product's name: the newest successful analysis's, else the one typed for its newest video; without either it becomes
-- untitled (the empty name, read as "Untitled project" in the reader's language). A name that differs from the host is
-- the user's and is kept. The link is the project's, else its newest analysis's (a failed analysis never stored it).
WITH candidates AS (
	SELECT p.id,
		coalesce(p.product_link, (
			SELECT t.input->>'productLink' FROM tasks t
			WHERE t.user_id = p.user_id AND coalesce(t.project_id, t.input->>'projectId') = p.id AND t.kind = 'link-analysis'
			ORDER BY t.created_at DESC LIMIT 1)) AS link,
		coalesce((
			SELECT t.result->>'productName' FROM tasks t
			WHERE t.user_id = p.user_id AND coalesce(t.project_id, t.input->>'projectId') = p.id AND t.kind = 'link-analysis'
				AND t.status = 'SUCCESS' AND btrim(coalesce(t.result->>'productName', '')) <> ''
			ORDER BY t.created_at DESC LIMIT 1), (
			SELECT t.input->>'productName' FROM tasks t
			WHERE t.user_id = p.user_id AND coalesce(t.project_id, t.input->>'projectId') = p.id AND t.kind = 'link-video'
				AND btrim(coalesce(t.input->>'productName', '')) <> ''
			ORDER BY t.created_at DESC LIMIT 1), '') AS product_name
	FROM projects p
	WHERE p.name <> ''
), hosts AS (
	SELECT id, product_name,
		regexp_replace(lower(substring(link FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]+)')), '^www\.', '') AS host
	FROM candidates
)
-- The product's name as projectNameOf writes it: runs of spaces folded, trimmed, cut to 100 characters.
UPDATE projects p
SET name = btrim(left(btrim(regexp_replace(h.product_name, '\s+', ' ', 'g')), 100))
FROM hosts h
WHERE p.id = h.id AND h.host IS NOT NULL AND h.host <> ''
	AND lower(btrim(p.name)) IN (h.host, 'www.' || h.host);
