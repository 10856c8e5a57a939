import type { HistoryTab, OperationType, PointsRecord } from '@reelsmith/contract';
import { Button, Empty, Table, type TableColumnsType } from 'antd';
import { type ReactNode, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNearBottom } from '../../shared/paging/nearBottom';
import { usePager } from '../../shared/paging/usePager';
import { Busy } from '../../shared/ui/Busy';
import styles from './credits.module.css';
import { formatAmount, formatHistoryTime } from './format';
import { historyPager, recordKey } from './history';

/**
 * One tab of the credit details: a table of source, amount and date that loads the next page as the
 * area is scrolled near its bottom (spec "Screens and routes"). Mounted with the modal, so closing it starts over.
 */
export function CreditHistory({ tab }: { tab: HistoryTab }) {
  const { t } = useTranslation(['credits', 'shared']);
  const [{ items, loading, finished, failed }, pager] = usePager(() => historyPager(tab));
  const loadMore = useCallback(() => pager.loadMore(), [pager]);
  const onScroll = useNearBottom(loadMore);

  const columns: TableColumnsType<PointsRecord> = [
    {
      key: 'source',
      title: t('history.source'),
      dataIndex: 'operationType',
      render: (type: OperationType) => t(`operationType.${type}`),
    },
    {
      key: 'amount',
      title: t('history.amount'),
      dataIndex: 'pointsChange',
      align: 'right',
      render: (change: number) => <span className={change > 0 ? styles.gain : styles.spend}>{formatAmount(change, tab)}</span>,
    },
    { key: 'date', title: t('history.date'), dataIndex: 'createTime', align: 'right', render: formatHistoryTime },
  ];

  const retry = (
    <div className={styles.status} role="alert">
      {t('history.failed')}
      <Button size="small" onClick={loadMore}>
        {t('shared:messages.retry')}
      </Button>
    </div>
  );
  let emptyText = <Busy compact />;
  if (failed) emptyText = retry;
  else if (finished) emptyText = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />;

  let status: ReactNode = null;
  if (items.length > 0) {
    if (loading) status = <Busy compact />;
    else if (failed) status = retry;
    else if (finished) status = <p className={styles.status}>{t('history.end')}</p>;
  }

  return (
    <section className={styles.scrollArea} aria-label={t('history.region', { tab: t(`details.tabs.${tab}`) })} onScroll={onScroll}>
      <Table rowKey={recordKey} columns={columns} dataSource={items} pagination={false} sticky size="middle" locale={{ emptyText }} />
      {status}
    </section>
  );
}
