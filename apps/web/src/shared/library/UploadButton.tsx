import { CloudUploadOutlined } from '@ant-design/icons';
import { Button, type ButtonProps } from 'antd';
import { useRef } from 'react';

/** A button that opens the computer's file picker for pictures and videos, and hands over the files chosen. */
export function UploadButton({ label, onFiles, type }: { label: string; onFiles: (files: File[]) => void; type?: ButtonProps['type'] }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button type={type} icon={<CloudUploadOutlined />} onClick={() => input.current?.click()}>
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/*,video/*"
        multiple
        hidden
        aria-label={label}
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          // The same file chosen again is a new upload.
          event.target.value = '';
        }}
      />
    </>
  );
}
