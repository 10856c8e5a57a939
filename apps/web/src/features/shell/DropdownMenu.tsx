import { Dropdown, type MenuProps } from 'antd';
import { type ReactElement, useEffect, useState } from 'react';

/** MenuDropdown's antd part: mounted by the click that loaded it, so it starts open. */
export function DropdownMenu({ menu, onMount, children }: { menu: MenuProps; onMount: () => void; children: ReactElement }) {
  const [open, setOpen] = useState(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this part has taken over the button.
  useEffect(onMount, []);
  return (
    <Dropdown trigger={['click']} open={open} onOpenChange={setOpen} menu={menu}>
      {children}
    </Dropdown>
  );
}
