import type { CourseItem } from '../course-item/descriptor';

export interface Node {
  item: CourseItem;
  children: CourseItem[];
}

/** The course's items as it shows them: chapters (and items beside them) in order, each chapter's items in it. */
export function outline(items: CourseItem[]): Node[] {
  const sorted = [...items].sort((a, b) => a.sort - b.sort);
  return sorted
    .filter((i) => !i.parentId)
    .map((item) => ({ item, children: sorted.filter((i) => i.parentId === item.id) }));
}

/**
 * The outline after `dragged` is dropped on `target` (into it when `into`, a chapter; else before or after it), or
 * undefined when the drop is not allowed (a chapter into a chapter).
 */
export function dropped(
  tree: Node[],
  dragged: string,
  target: string,
  into: boolean,
  after: boolean,
): { id: string; parentId: string | null }[] | undefined {
  const all = tree.flatMap((n) => [n.item, ...n.children]);
  const moving = all.find((i) => i.id === dragged);
  const onto = all.find((i) => i.id === target);
  if (!moving || !onto || dragged === target) return undefined;
  const chapter = moving.itemType === 'chapter';
  const ontoParent = into ? onto.id : onto.parentId;
  if (chapter && ontoParent) return undefined;
  if (into && onto.itemType !== 'chapter') return undefined;
  // the outline without the dragged item (a chapter takes its items with it)
  const rest: Node[] = tree
    .filter((n) => n.item.id !== dragged)
    .map((n) => ({ item: n.item, children: n.children.filter((c) => c.id !== dragged) }));
  const moved: Node = chapter
    ? (tree.find((n) => n.item.id === dragged) as Node)
    : { item: { ...moving, parentId: ontoParent }, children: [] };
  if (into) {
    const node = rest.find((n) => n.item.id === onto.id) as Node;
    node.children.unshift(moved.item);
  } else if (ontoParent) {
    const node = rest.find((n) => n.item.id === ontoParent) as Node;
    const at = node.children.findIndex((c) => c.id === onto.id);
    node.children.splice(at + (after ? 1 : 0), 0, moved.item);
  } else {
    const at = rest.findIndex((n) => n.item.id === onto.id);
    rest.splice(at + (after ? 1 : 0), 0, moved);
  }
  return rest.flatMap((n) => [
    { id: n.item.id, parentId: null },
    ...n.children.map((c) => ({ id: c.id, parentId: n.item.id })),
  ]);
}
