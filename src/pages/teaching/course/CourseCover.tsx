import { useAccess } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Image } from 'antd';
import { fileLink } from '@/services/files';
import { ignoreShownError } from '@/utils/request';

/** A course's cover on its profile: the image, by a signed link (for a viewer of files), or its file's name. */
export default function CourseCover({
  course,
}: {
  course: { coverFileId: string | null; coverFileName: string | null };
}) {
  const access = useAccess();
  const id = course.coverFileId;
  const { data: link } = useRequest(() => fileLink(id as string, true), {
    ready: Boolean(id && access['file:file:list']),
    refreshDeps: [id],
    onError: ignoreShownError,
  });
  if (!id) return '-';
  return link ? (
    <Image src={link.url} alt={course.coverFileName ?? ''} width={160} data-testid="course-cover" />
  ) : (
    <span data-testid="course-cover">{course.coverFileName ?? id}</span>
  );
}
