import {
  ApartmentOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BankOutlined,
  BookOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  CommentOutlined,
  CrownOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  FileOutlined,
  FileTextOutlined,
  FormOutlined,
  IdcardOutlined,
  LoginOutlined,
  MessageOutlined,
  PieChartOutlined,
  ProfileOutlined,
  QuestionOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  SolutionOutlined,
  StopOutlined,
  TagsOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  UserSwitchOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';
import type { MenuRoute } from '@/services/menu';

/** The icons routes.ts names (`icon: 'safetyCertificate'`), loaded with the menu rather than the first download. */
export const menuIconNames = (): string[] => Object.keys(icons);

const icons: Record<string, ComponentType> = {
  api: ApiOutlined,
  apartment: ApartmentOutlined,
  appstore: AppstoreOutlined,
  bank: BankOutlined,
  book: BookOutlined,
  cloudServer: CloudServerOutlined,
  cluster: ClusterOutlined,
  comment: CommentOutlined,
  crown: CrownOutlined,
  dashboard: DashboardOutlined,
  environment: EnvironmentOutlined,
  file: FileOutlined,
  fileText: FileTextOutlined,
  form: FormOutlined,
  idcard: IdcardOutlined,
  login: LoginOutlined,
  message: MessageOutlined,
  pieChart: PieChartOutlined,
  profile: ProfileOutlined,
  question: QuestionOutlined,
  read: ReadOutlined,
  safetyCertificate: SafetyCertificateOutlined,
  setting: SettingOutlined,
  solution: SolutionOutlined,
  stop: StopOutlined,
  tags: TagsOutlined,
  team: TeamOutlined,
  tool: ToolOutlined,
  user: UserOutlined,
  userSwitch: UserSwitchOutlined,
  warning: WarningOutlined,
};

/** Menu routes with their icon names turned into icons. */
export function withMenuIcons<R extends MenuRoute>(routes: R[]): R[] {
  return routes.map((route) => {
    const Icon = typeof route.icon === 'string' ? icons[route.icon] : undefined;
    const kids = route.children ?? route.routes;
    return {
      ...route,
      icon: Icon ? <Icon /> : route.icon,
      ...(route.children ? { children: withMenuIcons(kids as R[]) } : {}),
      ...(route.routes ? { routes: withMenuIcons(kids as R[]) } : {}),
    };
  });
}
