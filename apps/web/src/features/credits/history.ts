import { type HistoryTab, POINTS_PAGE_SIZE, type PointsRecord, pointsList } from '@reelsmith/contract';
import { api } from '../../shared/api/client';
import { Pager } from '../../shared/paging/pager';

/** A record's identity: the service gives no row id, and a reference (a task) may appear in both tabs. */
export const recordKey = (record: PointsRecord): string =>
  [record.referenceId, record.operationType, record.createTime, record.pointsChange].join('|');

/** The infinite list of one tab of the credit history, 40 records a page (spec "Business constants"). */
export const historyPager = (tab: HistoryTab): Pager<PointsRecord> =>
  new Pager(
    (page, signal) => api(pointsList, { body: { page, pageSize: POINTS_PAGE_SIZE, operationType: tab }, signal }),
    POINTS_PAGE_SIZE,
    recordKey,
  );
