import { CloseOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/** The small round × on a picked picture or tile, named for what it removes; placed by the caller's class. */
export function RemoveButton({ className, label, onRemove }: { className?: string | undefined; label: string; onRemove: () => void }) {
  return <Button className={className} size="small" shape="circle" icon={<CloseOutlined />} aria-label={label} onClick={onRemove} />;
}
