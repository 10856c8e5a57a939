import type { MenuProps } from 'antd';
import { cloneElement, type ReactElement, Suspense, useRef, useState } from 'react';
import { lazyNamed } from '../../shared/lazyNamed';
import styles from './shell.module.css';

// antd's Dropdown and Menu (with their popup, motion and overflow code) come with the first opening of a header menu,
// not with every first visit (decision "First-load bundle split").
const DropdownMenu = lazyNamed(() => import('./DropdownMenu'), 'DropdownMenu');

/**
 * The header's menus (language, account): `children` is the button, which opens `menu` on click as antd's Dropdown
 * does. Until the first click the button is shown alone; that click loads antd's part, which takes over open.
 */
export function MenuDropdown({ menu, children }: { menu: MenuProps; children: ReactElement<{ onClick?: () => void }> }) {
  const [loaded, setLoaded] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  // The button is mounted anew when antd's part takes over: a keyboard user's focus goes back to it.
  const hadFocus = useRef(false);
  const refocus = () => {
    if (hadFocus.current) box.current?.querySelector('button')?.focus();
  };
  const load = () => {
    hadFocus.current = box.current?.contains(document.activeElement) ?? false;
    setLoaded(true);
  };
  return (
    <span ref={box} className={styles.contents}>
      {loaded ? (
        <Suspense fallback={children}>
          <DropdownMenu menu={menu} onMount={refocus}>
            {children}
          </DropdownMenu>
        </Suspense>
      ) : (
        cloneElement(children, { onClick: load })
      )}
    </span>
  );
}
