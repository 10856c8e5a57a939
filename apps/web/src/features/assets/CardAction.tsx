import { Button } from 'antd';
import type { ReactNode } from 'react';

interface CardActionProps {
  label: string;
  icon: ReactNode;
  onClick?: () => void;
  /** Makes the action a link to this address (a download). */
  href?: string;
  danger?: boolean;
}

/** One icon action of a card, named for screen readers and by the browser's tooltip (light enough for a grid of many cards). */
export function CardAction({ label, icon, onClick, href, danger }: CardActionProps) {
  return <Button type="text" size="small" aria-label={label} title={label} icon={icon} danger={danger} onClick={onClick} href={href} />;
}
