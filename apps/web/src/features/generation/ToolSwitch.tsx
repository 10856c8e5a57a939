import { Segmented } from 'antd';
import { useLocation, useNavigate } from 'react-router';

/** The sibling tools of a module (text or image to video; text to image or try-on), one click apart. */
export function ToolSwitch({ label, tools }: { label: string; tools: { path: string; label: string }[] }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <nav aria-label={label}>
      <Segmented
        block
        value={pathname}
        options={tools.map((tool) => ({ value: tool.path, label: tool.label }))}
        onChange={(path) => navigate(path)}
      />
    </nav>
  );
}
