import { ArrowLeftOutlined, ArrowRightOutlined, DeleteOutlined, PictureOutlined } from '@ant-design/icons';
import type { Attachment } from '@server/modules/file/file/file.resource';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Image, Space, Typography } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { fileLink, uploadFile } from '@/services/files';
import message from '@/utils/message';
import request, { ignoreShownError } from '@/utils/request';

/** The images a question may show (the server's rule, question.media.ts): their types and largest size. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const IMAGE_MAX_MB = 5;

interface Shown {
  url: string;
  name: string;
}
interface MediaLinks {
  shown: (id: string) => Shown | undefined;
  remember: (id: string, link: Shown) => void;
  /** Whether a provider is above (else a preview fetches its question's images itself). */
  provided: boolean;
}
const MediaContext = createContext<MediaLinks>({
  shown: () => undefined,
  remember: () => undefined,
  provided: false,
});

/**
 * The links of the images a question (or a paper's questions) shows, for the thumbnails below it: those the question
 * holds (`questionId`: every version's, `/attachments`), those given (a paper's preview), and those just uploaded.
 */
export function QuestionMediaProvider({
  questionId,
  media,
  children,
}: {
  questionId?: string;
  media?: Attachment[];
  children: ReactNode;
}) {
  const [added, setAdded] = useState<Record<string, Shown>>({});
  const { data: held } = useRequest(() => request.get<Attachment[]>(`/api/assess/question/${questionId}/attachments`), {
    ready: Boolean(questionId),
    refreshDeps: [questionId],
    onError: ignoreShownError,
  });
  const links = useMemo(() => {
    const all: Record<string, Shown> = {};
    for (const a of [...(held ?? []), ...(media ?? [])]) all[a.id] = { url: a.previewUrl, name: a.name };
    return { ...all, ...added };
  }, [held, media, added]);
  const remember = useCallback((id: string, link: Shown) => setAdded((was) => ({ ...was, [id]: link })), []);
  const value = useMemo(() => ({ shown: (id: string) => links[id], remember, provided: true }), [links, remember]);
  return <MediaContext.Provider value={value}>{children}</MediaContext.Provider>;
}

export const useMediaLinks = () => useContext(MediaContext);

/** The images of a stem or an option, in order, as thumbnails that open larger (an image not at hand by its place). */
export function MediaImages({ ids, size = 120 }: { ids?: readonly string[] | null; size?: number }) {
  const { shown } = useMediaLinks();
  if (!ids?.length) return null;
  return (
    <div data-testid="question-media" style={{ margin: '4px 0 8px' }}>
      <Image.PreviewGroup>
        <Space wrap>
          {ids.map((id) => {
            const link = shown(id);
            return link ? (
              <Image key={id} src={link.url} alt={link.name} height={size} style={{ objectFit: 'contain' }} />
            ) : (
              <PictureOutlined key={id} style={{ fontSize: size / 3, color: '#bfbfbf' }} aria-label={id} />
            );
          })}
        </Space>
      </Image.PreviewGroup>
    </div>
  );
}

/**
 * The images of a stem or an option as a form field whose value is their ids: each image chosen (PNG, JPEG, GIF or
 * WebP within the size) is uploaded at once as an attachment the question claims when it is saved; each shows as a
 * thumbnail, moved earlier or later, or removed.
 */
export function MediaField({
  value,
  onChange,
  max = 8,
  testId = 'media-field',
  compact,
}: {
  value?: string[];
  onChange?: (ids: string[]) => void;
  max?: number;
  testId?: string;
  /** An option's or an item's: a small button, no hint. */
  compact?: boolean;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { shown, remember } = useMediaLinks();
  const [uploading, setUploading] = useState(0);
  const ids = value ?? [];
  // several images chosen at once are added one after the other, each to the list as the last one left it
  const latest = useRef(ids);
  const picker = useRef<HTMLInputElement>(null);
  latest.current = ids;
  const move = (from: number, to: number) => {
    const next = [...ids];
    const [id] = next.splice(from, 1);
    next.splice(to, 0, id as string);
    onChange?.(next);
  };
  const add = async (file: File) => {
    if (!IMAGE_TYPES.includes(file.type)) {
      message.error(t('assess.question.media.type'));
      return;
    }
    if (file.size > IMAGE_MAX_MB * 1024 * 1024) {
      message.error(t('assess.question.media.size', { max: IMAGE_MAX_MB }));
      return;
    }
    setUploading((n) => n + 1);
    try {
      const stored = await uploadFile(file, { purpose: 'attachment' });
      const link = await fileLink(stored.id, true);
      remember(stored.id, { url: link.url, name: stored.originalName });
      latest.current = [...latest.current, stored.id];
      onChange?.(latest.current);
    } catch {
      // the upload's refusal is on screen already
    } finally {
      setUploading((n) => n - 1);
    }
  };
  return (
    <div data-testid={testId}>
      <Space wrap align="start">
        {ids.map((id, i) => {
          const link = shown(id);
          return (
            <div key={id} data-testid={`${testId}-image`} style={{ textAlign: 'center' }}>
              {link ? (
                <Image src={link.url} alt={link.name} width={96} height={72} style={{ objectFit: 'contain' }} />
              ) : (
                <PictureOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />
              )}
              <div>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowLeftOutlined />}
                  disabled={i === 0}
                  aria-label={t('assess.question.media.earlier')}
                  onClick={() => move(i, i - 1)}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowRightOutlined />}
                  disabled={i === ids.length - 1}
                  aria-label={t('assess.question.media.later')}
                  onClick={() => move(i, i + 1)}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('resource.delete')}
                  data-testid={`${testId}-remove`}
                  onClick={() => onChange?.(ids.filter((other) => other !== id))}
                />
              </div>
            </div>
          );
        })}
        {ids.length < max && (
          <>
            {/* a plain file input (an option's field is one of many on the step: kept light) */}
            <input
              ref={picker}
              type="file"
              accept={IMAGE_TYPES.join(',')}
              multiple
              style={{ display: 'none' }}
              onChange={(e) => {
                const chosen = [...(e.target.files ?? [])];
                e.target.value = '';
                for (const file of chosen) add(file);
              }}
            />
            <Button
              size="small"
              type={compact ? 'text' : 'default'}
              icon={<PictureOutlined />}
              loading={uploading > 0}
              data-testid={`${testId}-add`}
              title={t('assess.question.media.hint', { max: IMAGE_MAX_MB })}
              onClick={() => picker.current?.click()}
            >
              {compact ? undefined : t('assess.question.media.add')}
            </Button>
          </>
        )}
      </Space>
      {ids.length === 0 && !compact && (
        <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 8 }}>
          {t('assess.question.media.hint', { max: IMAGE_MAX_MB })}
        </Typography.Text>
      )}
    </div>
  );
}
