import type { Hono } from 'hono';
import type { AppEnv } from '../../core/context';

/**
 * The demo tenant's content (`npm start` on the embedded database, `npm run dev`): a hospital's training bases and
 * departments, trainees and teachers, a question bank with every type and medical format, papers, a course and
 * teaching activities, so that a first start shows the product rather than empty lists. Everything is created
 * through the API, signed in as demo/admin, so it obeys every rule a user's input does.
 */

const DAY = 86_400_000;
const five = (...texts: string[]) => texts.map((text, i) => ({ key: 'ABCDE'[i] as string, text }));

/** The organisation tree: [code, name, type, parent code, specialty]. */
const ORGANISATIONS: [string, string, string, string | null, string?][] = [
  ['DEMO-H', '演示医院', 'hospital', null],
  ['DEMO-KJK', '科教科', 'office', 'DEMO-H'],
  ['DEMO-JD', '住院医师规范化培训基地', 'training_base', 'DEMO-H'],
  ['DEMO-NK', '内科专业基地', 'specialty_base', 'DEMO-JD', 'internal_medicine'],
  ['DEMO-WK', '外科专业基地', 'specialty_base', 'DEMO-JD', 'surgery'],
  ['DEMO-EK', '儿科专业基地', 'specialty_base', 'DEMO-JD', 'pediatrics'],
  ['DEMO-JZ', '急诊科专业基地', 'specialty_base', 'DEMO-JD', 'emergency'],
  ['DEMO-XN', '心血管内科', 'department', 'DEMO-NK'],
  ['DEMO-HX', '呼吸与危重症医学科', 'department', 'DEMO-NK'],
  ['DEMO-XH', '消化内科', 'department', 'DEMO-NK'],
  ['DEMO-PW', '普通外科', 'department', 'DEMO-WK'],
  ['DEMO-EKS', '儿科', 'department', 'DEMO-EK'],
  ['DEMO-JZK', '急诊科', 'department', 'DEMO-JZ'],
];

/** Teachers: [name, gender, department code, title, tutor]. */
const DOCTORS: [string, string, string, string, boolean][] = [
  ['王建国', 'male', 'DEMO-XN', 'chief', true],
  ['李文静', 'female', 'DEMO-HX', 'associate_chief', true],
  ['周涛', 'male', 'DEMO-XH', 'attending', false],
  ['张海峰', 'male', 'DEMO-PW', 'chief', true],
  ['孙丽', 'female', 'DEMO-PW', 'attending', false],
  ['陈晓燕', 'female', 'DEMO-EKS', 'associate_chief', true],
  ['刘志强', 'male', 'DEMO-JZK', 'associate_chief', true],
  ['黄欣', 'female', 'DEMO-JZK', 'attending', false],
];

/** Residents: [name, gender, specialty base code, cohort, tutor, still to report]. */
const TRAINEES: [string, string, string, number, string, boolean?][] = [
  ['赵一鸣', 'male', 'DEMO-NK', 2024, '王建国'],
  ['钱思雨', 'female', 'DEMO-NK', 2024, '王建国'],
  ['孙浩然', 'male', 'DEMO-NK', 2025, '李文静'],
  ['李佳琪', 'female', 'DEMO-NK', 2025, '李文静'],
  ['周子轩', 'male', 'DEMO-NK', 2026, '王建国'],
  ['吴雨桐', 'female', 'DEMO-NK', 2026, '李文静', true],
  ['郑博文', 'male', 'DEMO-WK', 2024, '张海峰'],
  ['王梓涵', 'female', 'DEMO-WK', 2025, '张海峰'],
  ['冯俊杰', 'male', 'DEMO-WK', 2025, '张海峰'],
  ['陈一诺', 'female', 'DEMO-WK', 2026, '张海峰'],
  ['褚嘉怡', 'female', 'DEMO-EK', 2024, '陈晓燕'],
  ['卫明轩', 'male', 'DEMO-EK', 2025, '陈晓燕'],
  ['蒋欣然', 'female', 'DEMO-EK', 2026, '陈晓燕'],
  ['沈宇航', 'male', 'DEMO-JZ', 2024, '刘志强'],
  ['韩雪', 'female', 'DEMO-JZ', 2025, '刘志强'],
  ['杨天宇', 'male', 'DEMO-JZ', 2026, '刘志强'],
  ['朱诗涵', 'female', 'DEMO-JZ', 2026, '刘志强', true],
  ['秦思远', 'male', 'DEMO-NK', 2025, '王建国'],
];

/** The bank's categories and knowledge points: [code, name, parent code]. */
const CATEGORIES: [string, string, string | null][] = [
  ['IM', '内科学', null],
  ['IM-CV', '心血管系统', 'IM'],
  ['IM-RESP', '呼吸系统', 'IM'],
  ['IM-GI', '消化系统', 'IM'],
  ['SURG', '外科学', null],
  ['SURG-GEN', '普通外科', 'SURG'],
  ['PED', '儿科学', null],
  ['EM', '急诊医学', null],
];
const KNOWLEDGE: [string, string, string | null][] = [
  ['KP-CV', '心血管疾病', null],
  ['KP-AMI', '急性心肌梗死', 'KP-CV'],
  ['KP-HF', '心力衰竭', 'KP-CV'],
  ['KP-HTN', '原发性高血压', 'KP-CV'],
  ['KP-PNA', '肺炎', null],
  ['KP-ASTHMA', '支气管哮喘', null],
  ['KP-COPD', '慢性阻塞性肺疾病', null],
  ['KP-PU', '消化性溃疡', null],
  ['KP-AP', '急腹症', null],
  ['KP-DIARRHEA', '小儿腹泻病', null],
  ['KP-CPR', '心肺复苏', null],
];

interface DemoQuestion {
  key: string;
  category: string;
  knowledge?: string[];
  /** Left out of the review: `draft` or `pending_review`; approved otherwise. */
  status?: 'draft' | 'pending_review';
  body: Record<string, unknown>;
}

const QUESTIONS: DemoQuestion[] = [
  {
    key: 'a1-ami',
    category: 'IM-CV',
    knowledge: ['KP-AMI'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A1',
      stem: '急性心肌梗死后血清中最早升高的心肌损伤标志物是',
      options: five('肌钙蛋白 I', '肌红蛋白', '肌酸激酶同工酶（CK-MB）', '天冬氨酸转氨酶', '乳酸脱氢酶'),
      answer: ['B'],
      analysis: '肌红蛋白起病后 2 小时内即升高，是最早出现的标志物，但特异性不如肌钙蛋白。',
      difficulty: 2,
    },
  },
  {
    key: 'a1-htn',
    category: 'IM-CV',
    knowledge: ['KP-HTN'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A1',
      stem: '我国高血压患者最常见的死亡原因是',
      options: five('脑血管意外', '心力衰竭', '肾衰竭', '主动脉夹层', '冠心病猝死'),
      answer: ['A'],
      difficulty: 2,
    },
  },
  {
    key: 'a2-stemi',
    category: 'IM-CV',
    knowledge: ['KP-AMI'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A2',
      stem: '男，62 岁。突发胸骨后压榨样疼痛 2 小时，伴大汗。心电图示 V1–V4 导联 ST 段弓背向上抬高。最可能的诊断是',
      options: five('急性前壁心肌梗死', '急性下壁心肌梗死', '不稳定型心绞痛', '急性心包炎', '主动脉夹层'),
      answer: ['A'],
      difficulty: 3,
      tags: ['高频'],
    },
  },
  {
    key: 'a1-cap',
    category: 'IM-RESP',
    knowledge: ['KP-PNA'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A1',
      stem: '社区获得性肺炎最常见的病原体是',
      options: five('肺炎链球菌', '金黄色葡萄球菌', '肺炎克雷伯菌', '铜绿假单胞菌', '嗜肺军团菌'),
      answer: ['A'],
      difficulty: 1,
    },
  },
  {
    key: 'a2-asthma',
    category: 'IM-RESP',
    knowledge: ['KP-ASTHMA'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A2',
      stem: '女，25 岁。反复发作性喘息 3 年，多于接触花粉后发作。查体：双肺可闻及呼气相哮鸣音。缓解症状首选的药物是',
      options: five('吸入沙丁胺醇', '口服泼尼松', '吸入布地奈德', '口服孟鲁司特', '静脉注射氨茶碱'),
      answer: ['A'],
      difficulty: 2,
    },
  },
  {
    key: 'a1-pu',
    category: 'IM-GI',
    knowledge: ['KP-PU'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A1',
      stem: '消化性溃疡最常见的并发症是',
      options: five('上消化道出血', '穿孔', '幽门梗阻', '癌变', '缺铁性贫血'),
      answer: ['A'],
      difficulty: 1,
    },
  },
  {
    key: 'a1-appendicitis',
    category: 'SURG-GEN',
    knowledge: ['KP-AP'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A1',
      stem: '急性阑尾炎最典型的症状是',
      options: five('转移性右下腹痛', '恶心、呕吐', '发热', '腹泻', '右下腹包块'),
      answer: ['A'],
      difficulty: 1,
      tags: ['高频'],
    },
  },
  {
    key: 'a2-dehydration',
    category: 'PED',
    knowledge: ['KP-DIARRHEA'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A2',
      stem: '患儿，10 个月。腹泻 3 天，每日 10 余次蛋花汤样便。查体：眼窝明显凹陷，哭时泪少，尿量明显减少，四肢稍凉。其脱水程度为',
      options: five('轻度脱水', '中度脱水', '重度脱水', '无脱水', '低血容量性休克'),
      answer: ['B'],
      difficulty: 3,
    },
  },
  {
    key: 'a1-cpr',
    category: 'EM',
    knowledge: ['KP-CPR'],
    body: {
      questionType: 'single_choice',
      medicalFormat: 'A1',
      stem: '成人心肺复苏时胸外按压的频率为',
      options: five('60～80 次/分', '80～100 次/分', '100～120 次/分', '120～140 次/分', '140 次/分以上'),
      answer: ['C'],
      difficulty: 1,
      tags: ['高频'],
    },
  },
  {
    key: 'x-ami',
    category: 'IM-CV',
    knowledge: ['KP-AMI'],
    body: {
      questionType: 'multiple_choice',
      medicalFormat: 'X',
      stem: '急性心肌梗死的并发症包括',
      options: five('乳头肌功能失调或断裂', '心脏破裂', '心室壁瘤', '栓塞', '主动脉瓣狭窄'),
      answer: ['A', 'B', 'C', 'D'],
      difficulty: 3,
    },
  },
  {
    key: 'x-asthma',
    category: 'IM-RESP',
    knowledge: ['KP-ASTHMA'],
    body: {
      questionType: 'multiple_choice',
      medicalFormat: 'X',
      stem: '支气管哮喘的特征包括',
      options: [
        { key: 'A', text: '反复发作的喘息、气急' },
        { key: 'B', text: '可逆性气流受限' },
        { key: 'C', text: '气道高反应性' },
        { key: 'D', text: '持续性、不可逆的气流受限' },
      ],
      answer: ['A', 'B', 'C'],
      difficulty: 2,
    },
  },
  {
    key: 'a3-hf',
    category: 'IM-CV',
    knowledge: ['KP-HF'],
    body: {
      questionType: 'case_group',
      medicalFormat: 'A3',
      stem: '男，68 岁。高血压病史 15 年。近 1 周夜间阵发性呼吸困难，今晨突发严重气急，不能平卧，咳粉红色泡沫痰。查体：BP 170/100 mmHg，端坐呼吸，双肺满布湿啰音，心率 118 次/分。',
      children: [
        {
          stem: '最可能的诊断是',
          options: five('急性左心衰竭', '支气管哮喘急性发作', '慢阻肺急性加重', '急性肺栓塞', '自发性气胸'),
          answer: ['A'],
        },
        {
          stem: '明确心脏结构与功能首选的检查是',
          options: five('超声心动图', '胸部 CT', '肺功能', '冠状动脉造影', '头颅 CT'),
          answer: ['A'],
        },
        {
          stem: '下列处理中错误的是',
          options: five('取坐位，双腿下垂', '高流量吸氧', '静脉注射呋塞米', '静脉扩血管治疗', '快速大量静脉补液'),
          answer: ['E'],
          analysis: '急性左心衰竭须减轻容量负荷，快速补液会加重肺水肿。',
        },
      ],
      difficulty: 3,
    },
  },
  {
    key: 'a4-pancreatitis',
    category: 'SURG-GEN',
    knowledge: ['KP-AP'],
    body: {
      questionType: 'case_group',
      medicalFormat: 'A4',
      stem: '男，45 岁。大量饮酒后突发上腹部持续性剧痛 6 小时，向腰背部放射，伴恶心、呕吐。查体：上腹部压痛、反跳痛，肠鸣音减弱。',
      children: [
        {
          stem: '对诊断最有帮助的检查是',
          options: five('血清淀粉酶', '血常规', '肝功能', '心电图', '尿常规'),
          answer: ['A'],
        },
        {
          stem: '（假设信息）入院第 2 天血钙 1.6 mmol/L，提示',
          options: five('病情严重，预后不良', '合并甲状旁腺功能减退', '营养不良', '实验室误差', '病情好转'),
          answer: ['A'],
        },
        {
          stem: '首先采取的基本治疗措施是',
          options: five('禁食、胃肠减压', '立即剖腹探查', '口服抗生素', '高蛋白饮食', '口服吗啡止痛'),
          answer: ['A'],
        },
      ],
      difficulty: 4,
    },
  },
  {
    key: 'b1-drugs',
    category: 'IM-CV',
    knowledge: ['KP-HF', 'KP-AMI'],
    body: {
      questionType: 'option_group',
      medicalFormat: 'B1',
      stem: '（共用备选答案）',
      options: five('地高辛', '硝酸甘油', '阿司匹林', '呋塞米', '美托洛尔'),
      children: [
        { stem: '心绞痛急性发作时首选', answer: ['B'] },
        { stem: '抑制血小板聚集', answer: ['C'] },
        { stem: '急性肺水肿时迅速利尿', answer: ['D'] },
      ],
      difficulty: 2,
    },
  },
  {
    key: 'case-stemi',
    category: 'EM',
    knowledge: ['KP-AMI', 'KP-CPR'],
    body: {
      questionType: 'case_analysis',
      medicalFormat: 'CASE',
      stem: '男，58 岁。晨起时突发胸骨后压榨性疼痛 1 小时，伴大汗、恶心，急诊就诊。既往吸烟 30 年。BP 100/65 mmHg，心率 56 次/分。',
      children: [
        {
          stem: '接诊后应立即进行的检查（可多选）',
          options: [
            { key: 'A', text: '18 导联心电图', weight: 2 },
            { key: 'B', text: '心肌损伤标志物', weight: 2 },
            { key: 'C', text: '胸部 CT 平扫', weight: 0 },
            { key: 'D', text: '腹部 B 超', weight: -1 },
          ],
          answer: ['A', 'B'],
        },
        {
          stem: '心电图示 II、III、aVF 导联 ST 段抬高。应采取的治疗（可多选）',
          options: [
            { key: 'A', text: '嚼服阿司匹林 300 mg', weight: 2 },
            { key: 'B', text: '尽早行急诊 PCI 再灌注', weight: 3 },
            { key: 'C', text: '评估溶栓禁忌证，PCI 不能及时进行时溶栓', weight: 1 },
            { key: 'D', text: '大剂量硝酸甘油快速静脉滴注', weight: -2 },
          ],
          answer: ['A', 'B', 'C'],
          analysis: '下壁心肌梗死常累及右心室，血压偏低时慎用硝酸酯类。',
        },
      ],
      difficulty: 4,
    },
  },
  {
    key: 'tf-ecg',
    category: 'IM-CV',
    knowledge: ['KP-AMI'],
    body: {
      questionType: 'true_false',
      stem: '心电图 ST 段抬高是诊断急性心肌梗死的唯一依据。',
      answer: false,
      analysis: '诊断须结合症状、心电图动态演变和心肌损伤标志物。',
      difficulty: 1,
    },
  },
  {
    key: 'tf-ors',
    category: 'PED',
    knowledge: ['KP-DIARRHEA'],
    body: {
      questionType: 'true_false',
      stem: '口服补液盐（ORS）可用于预防脱水及纠正轻、中度脱水。',
      answer: true,
      difficulty: 1,
    },
  },
  {
    key: 'fill-cpr',
    category: 'EM',
    knowledge: ['KP-CPR'],
    body: {
      questionType: 'fill_blank',
      stem: '成人胸外按压的深度为 {{blank}} cm，单人复苏时按压与通气之比为 {{blank}}。',
      answer: [
        ['5～6', '5-6', '5至6'],
        ['30:2', '30∶2'],
      ],
      difficulty: 2,
    },
  },
  {
    key: 'fill-copd',
    category: 'IM-RESP',
    knowledge: ['KP-COPD'],
    status: 'draft',
    body: {
      questionType: 'fill_blank',
      stem: '吸入支气管扩张剂后 FEV1/FVC < {{blank}}，可确定存在持续气流受限。',
      answer: [['0.70', '0.7', '70%']],
      difficulty: 2,
    },
  },
  {
    key: 'short-appendicitis',
    category: 'SURG-GEN',
    knowledge: ['KP-AP'],
    body: {
      questionType: 'short_answer',
      stem: '简述急性阑尾炎的典型临床表现。',
      answer: {
        reference: '转移性右下腹痛；胃肠道症状；发热等全身症状；右下腹固定压痛，可有腹膜刺激征。',
        points: [
          { text: '转移性右下腹痛', score: 2 },
          { text: '右下腹固定压痛', score: 2 },
          { text: '胃肠道及全身症状', score: 1 },
        ],
      },
      difficulty: 2,
    },
  },
  {
    key: 'short-fluids',
    category: 'PED',
    knowledge: ['KP-DIARRHEA'],
    status: 'pending_review',
    body: {
      questionType: 'short_answer',
      stem: '简述小儿腹泻病第一天静脉补液的原则。',
      answer: {
        reference: '三定（定量、定性、定速）、三先（先盐后糖、先浓后淡、先快后慢）、见尿补钾、抽搐补钙。',
        points: [
          { text: '定量、定性、定速', score: 3 },
          { text: '先盐后糖、先浓后淡、先快后慢', score: 2 },
          { text: '见尿补钾', score: 1 },
        ],
      },
      difficulty: 3,
    },
  },
  {
    key: 'essay-reperfusion',
    category: 'IM-CV',
    knowledge: ['KP-AMI'],
    body: {
      questionType: 'essay',
      stem: '论述急性 ST 段抬高型心肌梗死的再灌注治疗策略及其选择依据。',
      answer: {
        reference:
          '再灌注越早越好；首选直接 PCI（首次医疗接触至导丝通过 ≤ 90～120 分钟）；不能及时 PCI 且无禁忌证者于 30 分钟内溶栓；溶栓后转运行 PCI；结合发病时间、血流动力学、出血风险与就诊医院条件选择。',
        points: [
          { text: '时间窗与"时间就是心肌"', score: 4 },
          { text: '直接 PCI 的指征与时限', score: 6 },
          { text: '溶栓的指征、禁忌证与时限', score: 6 },
          { text: '药物－介入策略与转运', score: 4 },
        ],
      },
      difficulty: 5,
    },
  },
];

type Call = (
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) => Promise<Record<string, unknown> & { id: string }>;

/** Calls the API in-process, failing loudly: the content is the app's, a refusal is a bug of this list. */
function caller(app: Hono<AppEnv>, token: string): Call {
  return async (method, path, body, as) => {
    const res = await app.request(`/api${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'accept-language': 'zh-CN',
        authorization: `Bearer ${as ?? token}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`demo content: ${method} ${path} answered ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
}

async function signIn(app: Hono<AppEnv>, username: string, password: string): Promise<string> {
  const res = await app.request('/api/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', tenant: 'demo', username, password, client_id: 'console' }),
  });
  if (!res.ok) throw new Error(`demo content: sign-in of ${username} answered ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The reviewer who approves the bank's questions (an author never approves their own). */
export const DEMO_REVIEWER = { username: 'reviewer', password: 'Review-Otter-2026' };

/** Loads the demo content into the demo tenant just created (`seedDemo`). */
export async function seedDemoContent(app: Hono<AppEnv>, now = new Date()): Promise<void> {
  const call = caller(app, await signIn(app, 'admin', 'admin123'));
  const ids = new Map<string, string>();
  const id = (key: string) => ids.get(key) as string;

  for (const [code, name, orgType, parent, specialtyCode] of ORGANISATIONS) {
    const made = await call('POST', '/people/organization', {
      code,
      name,
      orgType,
      parentId: parent ? id(parent) : null,
      ...(specialtyCode && { specialtyCode, baseLevel: 'national' }),
    });
    ids.set(code, made.id);
  }

  const teacher = await call('POST', '/people/doctor-type', {
    code: 'teaching',
    name: '带教医师',
    teacherEligible: true,
  });
  for (const [name, gender, org, professionalTitle, isTutor] of DOCTORS) {
    const made = await call('POST', '/people/doctor', {
      name,
      gender,
      doctorTypeId: teacher.id,
      orgId: id(org),
      professionalTitle,
      isTutor,
    });
    ids.set(name, made.id);
  }

  const residency = await call('POST', '/people/trainee-type', {
    code: 'residency',
    name: '住院医师规范化培训',
    category: 'residency',
    traineeNoPattern: 'R{yyyy}{seq:4}',
  });
  const reporting = new Map<number, string[]>();
  for (const [i, [name, gender, base, cohortYear, tutor, applied]] of TRAINEES.entries()) {
    const specialtyCode = ORGANISATIONS.find(([code]) => code === base)?.[4];
    const made = await call('POST', '/people/trainee', {
      name,
      gender,
      mobile: `1390000${String(1001 + i)}`,
      traineeTypeId: residency.id,
      trainingBaseId: id('DEMO-JD'),
      specialtyBaseId: id(base),
      specialtyCode,
      cohortYear,
      trainingStart: `${cohortYear}-09-01`,
      plannedEnd: `${cohortYear + 3}-08-31`,
      tutorDoctorId: id(tutor),
      recruitType: i % 3 === 0 ? 'unit_entrusted' : 'social',
      graduateSchool: ['北京大学医学部', '复旦大学上海医学院', '中山大学中山医学院', '四川大学华西临床医学院'][i % 4],
      graduateMajor: '临床医学',
    });
    ids.set(name, made.id);
    if (!applied) reporting.set(cohortYear, [...(reporting.get(cohortYear) ?? []), made.id]);
  }
  // those who reported are in training from their cohort's September
  for (const [cohortYear, traineeIds] of reporting) {
    await call('POST', '/people/trainee/transition', {
      ids: traineeIds,
      to: 'in_training',
      reason: '报到入培',
      effectiveDate: `${cohortYear}-09-01`,
    });
  }

  await questionBank(app, call, ids);
  const exam = await papers(call, ids);
  await course(call, ids, residency.id, exam);
  await activities(call, ids, residency.id, now);
}

async function questionBank(app: Hono<AppEnv>, call: Call, ids: Map<string, string>) {
  const id = (key: string) => ids.get(key) as string;
  for (const [path, list] of [
    ['/assess/category', CATEGORIES],
    ['/assess/knowledge-point', KNOWLEDGE],
  ] as const) {
    for (const [code, name, parent] of list) {
      const made = await call('POST', path, { code, name, parentId: parent ? id(parent) : null });
      ids.set(code, made.id);
    }
  }

  // a reviewer of the bank: a second pair of eyes approves what the administrator writes
  const role = await call('POST', '/system/role', { code: 'question_reviewer', name: '题库审核' });
  // the bank's screens and its review: those two buttons and the menus above them
  type Node = { id: string; code: string | null; children?: Node[] };
  const wanted = new Set(['assess:question:list', 'assess:question:review']);
  const granted = new Set<string>();
  const walk = (nodes: Node[], above: string[]) => {
    for (const node of nodes) {
      if (node.code && wanted.has(node.code)) for (const one of [...above, node.id]) granted.add(one);
      walk(node.children ?? [], [...above, node.id]);
    }
  };
  const { tree } = (await call('GET', `/system/role/${role.id}/permissions`)) as unknown as { tree: Node[] };
  walk(tree, []);
  await call('PUT', `/system/role/${role.id}/permissions`, { permissionIds: [...granted] });
  await call('POST', '/system/admin', {
    userName: DEMO_REVIEWER.username,
    displayName: '题库审核专家',
    password: DEMO_REVIEWER.password,
    roleIds: [role.id],
    mustChangePassword: false,
  });
  const reviewer = await signIn(app, DEMO_REVIEWER.username, DEMO_REVIEWER.password);

  for (const q of QUESTIONS) {
    const made = await call('POST', '/assess/question', {
      ...q.body,
      categoryId: id(q.category),
      knowledgePointIds: (q.knowledge ?? []).map(id),
      source: '演示题库',
    });
    ids.set(q.key, made.id);
    if (q.status === 'draft') continue;
    const sent = await call('POST', `/assess/question/${made.id}/submit`, { version: made.version });
    if (q.status === 'pending_review') continue;
    await call(
      'POST',
      `/assess/question/${made.id}/review`,
      { decision: 'approve', comment: '审核通过', version: sent.version },
      reviewer,
    );
  }
}

/** A manual paper, published (the course's quiz), and a paper drawn by rules, left a draft. */
async function papers(call: Call, ids: Map<string, string>): Promise<string> {
  const slots = (keys: string[], score: number) => keys.map((key) => ({ questionId: ids.get(key), score }));
  const draft = await call('POST', '/assess/paper', {
    code: 'DEMO-NK-EXIT',
    title: '内科出科考核（示例）',
    purpose: 'department_exit',
    passScore: 20,
    durationMinutes: 60,
    sections: [
      { title: 'A1/A2 型题', slots: slots(['a1-ami', 'a1-htn', 'a2-stemi', 'a1-cap', 'a2-asthma', 'a1-pu'], 2) },
      { title: 'X 型题', slots: slots(['x-ami', 'x-asthma'], 3) },
      // a group's score is each of its items'
      { title: 'A3/A4 与 B1 型题', slots: slots(['a3-hf', 'b1-drugs'], 2) },
      { title: '判断题', slots: slots(['tf-ecg'], 2) },
    ],
  });
  const published = await call('POST', `/assess/paper/${draft.id}/publish`, { version: draft.version });
  await call('POST', '/assess/paper', {
    code: 'DEMO-PRACTICE',
    title: '住培综合练习（随机组卷）',
    purpose: 'practice',
    composeMode: 'random_per_candidate',
    passScore: 12,
    durationMinutes: 30,
    sections: [
      {
        title: '单选题',
        rules: [{ categoryIds: [ids.get('IM')], questionType: 'single_choice', count: 5, score: 2 }],
      },
      { title: '综合题', rules: [{ count: 3, score: 4, difficultyMin: 2 }] },
    ],
  });
  return published.id;
}

async function course(call: Call, ids: Map<string, string>, residencyId: string, paperId: string) {
  const general = await call('POST', '/teaching/course-category', { code: 'general', name: '公共课程' });
  const prejob = await call('POST', '/teaching/course-category', {
    code: 'pre_job',
    name: '岗前培训',
    parentId: general.id,
  });
  const made = await call('POST', '/teaching/course', {
    code: 'DEMO-PREJOB',
    title: '住院医师岗前培训',
    categoryId: prejob.id,
    purpose: 'pre_job',
    creditHours: 8,
    audienceTraineeTypeIds: [residencyId],
  });
  const item = async (body: Record<string, unknown>) => {
    const row = await call('POST', '/teaching/course-item', { courseId: made.id, ...body });
    // chapters too: a published course's outline shows none as a draft
    await call('POST', `/teaching/course-item/${row.id}/publish`, { version: row.version });
    return row;
  };
  const rules = await item({ itemType: 'chapter', title: '第一章 医疗核心制度' });
  const core = await item({
    itemType: 'rich_text',
    title: '十八项医疗质量安全核心制度',
    parentId: rules.id,
    contentHtml:
      '<h2>核心制度要点</h2><p>首诊负责制度、三级查房制度、会诊制度、分级护理制度、值班和交接班制度、疑难病例讨论制度……</p><ul><li>三级查房：主任、主治、住院医师逐级负责</li><li>交接班：床旁交接，记录完整</li></ul>',
  });
  await item({
    itemType: 'link',
    title: '医疗质量安全核心制度要点（国家卫生健康委）',
    parentId: rules.id,
    url: 'https://www.nhc.gov.cn/',
  });
  const skills = await item({ itemType: 'chapter', title: '第二章 临床基本功' });
  await item({
    itemType: 'rich_text',
    title: '病历书写基本规范',
    parentId: skills.id,
    contentHtml: '<p>病历书写应当客观、真实、准确、及时、完整、规范。入院记录须于患者入院后 24 小时内完成。</p>',
  });
  const quiz = await item({ itemType: 'quiz', title: '内科出科考核', parentId: skills.id, examPaperId: paperId });

  const published = await call('POST', `/teaching/course/${made.id}/publish`, { version: made.version });
  await call('POST', `/teaching/course/${made.id}/assign`, { version: published.version });
  // a few residents are under way: one has finished, two are reading
  const progress = (row: { id: string }, name: string, body: Record<string, unknown>) =>
    call('POST', `/teaching/course-item/${row.id}/progress`, { traineeId: ids.get(name), ...body });
  for (const name of ['赵一鸣', '钱思雨', '郑博文']) await progress(core, name, { percent: 100 });
  await progress(quiz, '赵一鸣', { percent: 100, score: 28 });
}

async function activities(call: Call, ids: Map<string, string>, residencyId: string, now: Date) {
  const hour = (days: number, h: number) => {
    const d = new Date(now.getTime() + days * DAY);
    d.setUTCHours(h, 0, 0, 0); // in UTC: 06:00 is 14:00 in China
    return d.toISOString();
  };
  const upcoming = await call('POST', '/teaching/activity', {
    title: '急性心力衰竭病例讨论',
    activityType: 'case_discussion',
    orgId: ids.get('DEMO-XN'),
    hostDoctorId: ids.get('王建国'),
    startAt: hour(2, 6),
    endAt: hour(2, 8),
    location: '心内科示教室',
    audienceTraineeTypeIds: [residencyId],
    audienceOrgIds: [ids.get('DEMO-NK')],
  });
  await call('POST', `/teaching/activity/${upcoming.id}/publish`, { version: upcoming.version });
  await call('POST', '/teaching/activity', {
    title: '腹部查体教学查房',
    activityType: 'ward_round',
    orgId: ids.get('DEMO-PW'),
    hostDoctorId: ids.get('张海峰'),
    startAt: hour(5, 1),
    endAt: hour(5, 3),
    location: '普外科病区',
    audienceTraineeTypeIds: [residencyId],
    audienceOrgIds: [ids.get('DEMO-WK')],
  });

  const past = await call('POST', '/teaching/activity', {
    title: '心肺复苏技能培训',
    activityType: 'skills_training',
    orgId: ids.get('DEMO-JZK'),
    hostDoctorId: ids.get('刘志强'),
    // one that has ended cannot be published: held this morning and closed early, the register taken by hand
    startAt: new Date(now.getTime() - 2 * 3_600_000).toISOString(),
    endAt: new Date(now.getTime() + 5 * 60_000).toISOString(),
    location: '临床技能中心',
    audienceTraineeTypeIds: [residencyId],
    audienceOrgIds: [ids.get('DEMO-JZ')],
  });
  const held = await call('POST', `/teaching/activity/${past.id}/publish`, { version: past.version });
  const participants = (await call('GET', `/teaching/activity/${past.id}/participants`)) as unknown as {
    traineeId: string;
  }[];
  const marked = await call('POST', `/teaching/activity/${past.id}/attendance`, {
    items: participants.map((p, i) => ({
      traineeId: p.traineeId,
      attendance: i === participants.length - 1 ? 'excused' : 'present',
      ...(i === participants.length - 1 && { note: '夜班后休息' }),
    })),
  });
  await call('POST', `/teaching/activity/${past.id}/complete`, { version: marked.version ?? held.version });
}
