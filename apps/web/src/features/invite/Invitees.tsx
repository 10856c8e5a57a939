import type { CallData, referralInfo } from '@reelsmith/contract';
import { Empty, Table, type TableColumnsType, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import styles from './invite.module.css';

type Invitee = CallData<typeof referralInfo>['invitees'][number];

/** The friends who joined with the link: name (or masked e-mail), date, and the reward it earned or the cap that stopped it. */
export function Invitees({ invitees }: { invitees: Invitee[] }) {
  const { t } = useTranslation('invite');
  const columns: TableColumnsType<Invitee> = [
    { key: 'name', title: t('invitees.name'), dataIndex: 'name' },
    {
      key: 'joinedAt',
      title: t('invitees.joinedAt'),
      dataIndex: 'joinedAt',
      render: (joinedAt: string) => dayjs(joinedAt).format('YYYY-MM-DD'),
    },
    {
      key: 'reward',
      title: t('invitees.reward'),
      align: 'right',
      render: (_, invitee) =>
        invitee.capped ? (
          <Tag>{t('invitees.capped')}</Tag>
        ) : (
          <span className={styles.reward}>{t('invitees.rewarded', { credits: invitee.rewardPoints })}</span>
        ),
    },
  ];
  return (
    <section className={styles.panel} aria-labelledby="invite-invitees">
      <h2 id="invite-invitees">{t('invitees.title')}</h2>
      <Table
        rowKey={(invitee) => `${invitee.joinedAt}|${invitee.name}`}
        columns={columns}
        dataSource={invitees}
        pagination={false}
        size="middle"
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('invitees.empty')} /> }}
      />
    </section>
  );
}
