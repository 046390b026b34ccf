import {
  BoldOutlined,
  ItalicOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Space, Tooltip } from 'antd';
import { type ReactNode, useEffect } from 'react';

interface Props {
  value?: string | null;
  onChange?: (html: string) => void;
  disabled?: boolean;
  /** The toolbar's tooltips, by command (the catalogue of the screen that shows the editor has them). */
  labels?: Partial<Record<Command, string>>;
}

type Command =
  | 'bold'
  | 'italic'
  | 'underline'
  | 'strike'
  | 'h2'
  | 'h3'
  | 'bulletList'
  | 'orderedList'
  | 'blockquote'
  | 'undo'
  | 'redo';

/**
 * Rich text as a form control (tiptap's starter kit: headings, lists, quotes, code, links): its value is HTML, which
 * the server sanitises before keeping it. An empty document is the empty string.
 */
export default function RichTextEditor({ value, onChange, disabled, labels = {} }: Props) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } })],
    content: value ?? '',
    editable: !disabled,
    editorProps: {
      attributes: { style: 'min-height: 240px; max-height: 480px; overflow-y: auto; padding: 8px 12px; outline: none' },
    },
    onUpdate: ({ editor: changed }) => onChange?.(changed.isEmpty ? '' : changed.getHTML()),
  });
  // a value set from outside (the form reset, a record loaded) replaces the text
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if ((value ?? '') !== current) editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);
  // not a change of the text: emitted, it would tell the form the field was touched as soon as it opens
  useEffect(() => {
    editor?.setEditable(!disabled, false);
  }, [editor, disabled]);
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            bold: e.isActive('bold'),
            italic: e.isActive('italic'),
            underline: e.isActive('underline'),
            strike: e.isActive('strike'),
            h2: e.isActive('heading', { level: 2 }),
            h3: e.isActive('heading', { level: 3 }),
            bulletList: e.isActive('bulletList'),
            orderedList: e.isActive('orderedList'),
            blockquote: e.isActive('blockquote'),
          }
        : undefined,
  });

  const button = (command: Command, icon: ReactNode, run: () => void) => (
    <Tooltip title={labels[command]} key={command}>
      <Button
        size="small"
        type={active?.[command as keyof typeof active] ? 'primary' : 'text'}
        icon={icon}
        disabled={disabled || !editor}
        data-testid={`rich-text-${command}`}
        aria-label={labels[command] ?? command}
        onMouseDown={(event) => event.preventDefault()}
        onClick={run}
      />
    </Tooltip>
  );
  const chain = () => editor?.chain().focus();

  return (
    <div style={{ border: '1px solid #d9d9d9', borderRadius: 6 }} data-testid="rich-text-editor">
      <Space size={2} wrap style={{ padding: '4px 8px', borderBottom: '1px solid #f0f0f0', width: '100%' }}>
        {button('bold', <BoldOutlined />, () => chain()?.toggleBold().run())}
        {button('italic', <ItalicOutlined />, () => chain()?.toggleItalic().run())}
        {button('underline', <UnderlineOutlined />, () => chain()?.toggleUnderline().run())}
        {button('strike', <StrikethroughOutlined />, () => chain()?.toggleStrike().run())}
        <Divider type="vertical" />
        {button('h2', 'H2', () => chain()?.toggleHeading({ level: 2 }).run())}
        {button('h3', 'H3', () => chain()?.toggleHeading({ level: 3 }).run())}
        {button('bulletList', <UnorderedListOutlined />, () => chain()?.toggleBulletList().run())}
        {button('orderedList', <OrderedListOutlined />, () => chain()?.toggleOrderedList().run())}
        {button('blockquote', '“', () => chain()?.toggleBlockquote().run())}
        <Divider type="vertical" />
        {button('undo', <UndoOutlined />, () => chain()?.undo().run())}
        {button('redo', <RedoOutlined />, () => chain()?.redo().run())}
      </Space>
      <EditorContent editor={editor} />
    </div>
  );
}
