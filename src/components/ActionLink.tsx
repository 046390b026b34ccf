import { Button, type ButtonProps } from 'antd';

/**
 * A row or toolbar action that reads as a link: a real button, so it is reached with Tab and pressed with Enter
 * (an `<a>` without href is neither), and it works as the trigger of a Popconfirm, Dropdown or ModalForm.
 */
export default function ActionLink({ style, ...props }: ButtonProps) {
  return <Button type="link" size="small" style={{ padding: 0, height: 'auto', ...style }} {...props} />;
}
