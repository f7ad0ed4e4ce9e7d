/**
 * The fixed corpus of the quote evaluation: interview notes in the languages Fieldbook handles,
 * spaced scripts and scripts written without spaces, with numbers, negations and words that
 * hold other words (disliked, 15), and one note in a project the asker cannot open.
 */
export interface CorpusNote {
  title: string;
  /** One paragraph each; every paragraph is one or more sentences. */
  paragraphs: string[];
}

export const PROJECT = 'Export study';
export const RESTRICTED_PROJECT = 'Board only';

export const NOTES: readonly CorpusNote[] = [
  {
    title: 'Interview with Maria',
    paragraphs: [
      'Maria runs a design agency of 12 people and has used Fieldbook exports since 2021.',
      'I really disliked the export flow because it took 15 minutes for one project.',
      'She did not want to pay for another seat, but she would renew if exports got faster.',
      'Her team shares highlights with clients every week.',
    ],
  },
  {
    title: 'Interview with Tom',
    paragraphs: [
      'Tom leads operations at a logistics company with 340 drivers.',
      'He told us the Fieldbook exports never finished on Mondays, so he stopped using them.',
      'Pricing felt fair, though he asked for an annual discount of 10 percent.',
      'He wants a Slack integration so that his team sees new insights without logging in.',
    ],
  },
  {
    title: 'Gespräch mit Jana',
    paragraphs: [
      'Jana arbeitet seit 3 Jahren als Forscherin in einem Team von 8 Personen.',
      'Der Einstiegspreis ist zu hoch, aber die Fieldbook Exporte sind unverzichtbar.',
      'Sie konnte die Berichte nicht teilen, weil die Freigabe zweimal fehlschlug.',
      'Ihr Team wünscht sich eine bessere Suche in alten Interviews.',
    ],
  },
  {
    title: 'Entretien avec Luc',
    paragraphs: [
      'Luc dirige une équipe de 25 chercheurs dans une banque à Lyon.',
      'Il trouve que les exports Fieldbook sont lents et que le tableau de bord est illisible.',
      'Son équipe ne veut pas changer d’outil avant la fin de 2026.',
      'Il aimerait partager des extraits avec la direction chaque mois.',
    ],
  },
  {
    title: 'Entrevista con Sofía',
    paragraphs: [
      'Sofía trabaja en una tienda en línea con 60 empleados en Madrid.',
      'Dijo que las exportaciones de Fieldbook fallaron tres veces en una semana.',
      'No recomendaría el plan anual porque cuesta 400 euros más.',
      'Su equipo usa las etiquetas para ordenar las entrevistas por país.',
    ],
  },
  {
    title: 'Интервью с Ольгой',
    paragraphs: [
      'Ольга руководит отделом исследований из 14 человек в Казани.',
      'Экспорт в Fieldbook неудобный, и отчёты приходится собирать вручную.',
      'Она не готова платить за дополнительные места в этом году.',
      'Команда хочет видеть новые инсайты в общем канале каждое утро.',
    ],
  },
  {
    title: '与王伟的访谈',
    paragraphs: [
      '王伟在上海的一家零售公司工作，团队有20个人，他们每周都会整理客户访谈，也会把重点发给产品经理。',
      '我真的不喜欢导出流程，每次导出都要等很久，价格太高了，老板也不同意续费。',
      '他希望搜索能够更快，也希望可以按照项目筛选笔记，这样新同事就能找到以前的研究。',
      '团队最喜欢的是高亮功能，因为可以很快把客户的原话分享给设计师，还可以加上标签。',
    ],
  },
  {
    title: '佐藤さんへのインタビュー',
    paragraphs: [
      '佐藤さんは東京のソフトウェア会社で働いていて、チームには9人のリサーチャーがいます。',
      'エクスポートが遅すぎて困っていると話していました、特に月曜日の朝はほとんど使えないそうです。',
      '料金は高くないが、年間契約の割引がほしいと言っていました、上司の承認も必要です。',
      'ハイライトを共有する機能はとても便利で、デザイナーとの会議で毎週使っています。',
    ],
  },
  {
    title: 'สัมภาษณ์คุณสมชาย',
    paragraphs: [
      'คุณสมชายทำงานที่บริษัทขนส่งในกรุงเทพ มีทีมวิจัย 7 คน และใช้ระบบนี้มาสองปี',
      'ฉันไม่ชอบการส่งออกข้อมูล เพราะต้องรอนานมาก และบางครั้งไฟล์ก็ไม่สมบูรณ์',
      'ราคาค่อนข้างสูง แต่ทีมยังอยากต่อสัญญา ถ้าการค้นหาเร็วขึ้นกว่านี้',
      'ทีมชอบการไฮไลต์ เพราะแชร์คำพูดของลูกค้าให้ผู้บริหารดูได้ทันที ทุกสัปดาห์',
    ],
  },
];

/** In the project the asker cannot open: words no answer for them may show. */
export const RESTRICTED_NOTE: CorpusNote = {
  title: 'Board minutes on exports',
  paragraphs: [
    'We will renew the data contract for five years no matter the price of exports.',
    'The board plans to acquire a competitor before the exports launch.',
  ],
};

/** Sentences no source holds, in the corpus's languages. */
export const INVENTED: readonly string[] = [
  'Customers adore the new export dashboard',
  'I would pay double for faster exports',
  'we will renew for five years no matter the price',
  'Die Exporte sind schneller als je zuvor',
  'Les exports sont parfaits depuis janvier',
  'Las exportaciones nunca fallan',
  'Экспорт работает идеально',
  '导出功能非常完美',
  'エクスポートはとても速いです',
  'การส่งออกเร็วมาก',
];
