import type { HistoryTab } from '@reelsmith/contract';
import dayjs from 'dayjs';

/** The date format of the credit history (spec "Screens and routes"), in the viewer's local time. */
export const HISTORY_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Earned amounts carry a plus sign; used amounts arrive negative and are shown as they come (spec "Screens and routes"). */
export const formatAmount = (pointsChange: number, tab: HistoryTab): string =>
  tab === 'gained' && pointsChange > 0 ? `+${pointsChange}` : String(pointsChange);

export const formatHistoryTime = (createTime: string): string => dayjs(createTime).format(HISTORY_TIME_FORMAT);
