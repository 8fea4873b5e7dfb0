// Owns the cue phrases of extractive logbook events in English, Chinese, Japanese, Korean and Spanish:
// what makes a sentence a decision, a bug or a fact, and what makes it narration, a plan, a hedge or an
// option only offered (never an event).

const intl = (parts: string[]): string => parts.join('|');

export const DECISION_CUE = new RegExp(
  String.raw`\b(?:decided|decide to|we(?:'ll| will)? go with|going with|let's (?:use|go with|switch|keep|` +
    String.raw`stick|do)|chose|choose to|opted|settled on|switch(?:ed)? to|we(?:'ll| will| should) use|` +
    String.raw`prefer(?:red)?\b.*\bover)\b|` +
    intl([
      '决定|決定|改用|换成|換成|选用|採用|采用|就用|改为|改成|统一用|不再使用|切换到|切換到|我们用|咱们用',
      'ことにし|ことにする|に決め|に変更し|を採用|に切り替え|を使います|を使用します|を使わず',
      '로 결정|하기로|결정했|으로 변경|로 변경|로 바꾸|사용하기로|[을를] 사용합니다|[을를] 쓰기로|(?:으로|로) 전환',
      String.raw`\bdecid(?:imos|ido|í)\b|\bvamos a usar\b|\busaremos\b|\boptamos\b|\belegimos\b|\bnos quedamos con\b|` +
        String.raw`\bcambi(?:amos|é|ado) a\b|\bpasamos a usar\b|\busemos\b`,
    ]),
  'i',
);

/** "instead of" / "rather than" make a decision only in a sentence that reports no problem and offers no option. */
export const WEAK_DECISION_CUE = /\b(?:instead of|rather than|en lugar de|en vez de)\b|而不是|代替|ではなく|대신/i;

export const PROBLEM_WORDS = new RegExp(
  /\b(?:issue|error|problem|bug|fail\w*|broken|wrong|cannot|can't|doesn't|unable|appears|seems)\b|/.source +
    /\bwas returning\b|\b(?:can|could|would|might)\b|^(?:i can see|it looks|result)\b/.source,
  'i',
);

export const BUG_CUE = new RegExp(
  String.raw`\b(?:the bug (?:is|was)|root cause(?: (?:is|was|identified)|:)|the (?:problem|issue) (?:is|` +
    'was)(?! clear)|caused by|was (?:broken|crashing|failing) because|regress(?:ed|ion) (?:in|' +
    String.raw`from|since|after)|doesn't work because|fails? because|crash(?:es|ed)? (?:when|on|because)|` +
    String.raw`(?:error|exception|failure|problem|issue) (?:is )?occurr?(?:s|ed|ing) because|` +
    String.raw`the error (?:is|was) (?:that|due to|because))\b|` +
    intl([
      '原因是|问题是|問題是|问题在于|原因在于|根本原因|是因为|導致|导致|错误是|报错是',
      '原因は|問題は|が原因|のせいで',
      '원인은|문제는|원인이',
      String.raw`\bel (?:problema|error) (?:es|era|estaba)\b|\bla causa (?:es|era)\b|` +
        String.raw`\bfallaba porque\b|\bfalla porque\b`,
    ]),
  'i',
);

export const FACT_CUE = new RegExp(
  String.raw`\b(?:turns out|note that|important(?:ly)?:|requires|depends on|must(?: not)? (?:be|stay|run|` +
    'use|have)|never (?:use|commit|push|run|edit)|always (?:use|run)|is (?:stored|located|' +
    "defined|configured) in|(?:doesn't|does not|only) supports?|only works|is deprecated|" +
    String.raw`defaults? to|is limited to|cannot be|can't be)\b|` +
    intl([
      '必须|不支持|只支持|默认|依赖于|只能',
      '必要があります|必須|サポートされていません|デフォルトで|に依存',
      '(?<!불)필요합니다|반드시|지원하지 않|기본값|에 의존',
      String.raw`\brequiere\b|\bno (?:admite|soporta)\b|\bpor defecto\b|\bsolo funciona\b|\bdepende de\b`,
    ]),
  'i',
);

export const FIX_CUE = new RegExp(
  String.raw`\b(?:(?:i've|we've|i|we|this|that|is now|now|it's|has been|have) fixed|fixed (?:it|the|by|` +
    'this|that)|the fix (?:is|was)|the (?:issue|problem|error|bug) (?:is|was)(?! clear)|' +
    'caused by|root cause|was missing|now passes|passes now|all tests pass|failed because|' +
    String.raw`fails because|(?:push|build|tests?) (?:succeeded|now works|works now))\b|` +
    intl([
      '修复|修好|已解决|解决了|搞定|成功了|推送成功|已经可以|原因是|问题是',
      '修正しました|直しました|解決しました|成功しました|原因は',
      '수정했|해결했|해결됐|고쳤|성공했|원인은',
      String.raw`\barreglad|\barreglé\b|\bcorregid|\bcorregí\b|\bsolucionad|\bsolucioné\b|\bya funciona\b|` +
        String.raw`\bel problema era\b`,
    ]),
  'i',
);

/** Narration and plans: what the agent is doing or will do next, never what was decided or found. */
export const NARRATION = new RegExp(
  String.raw`^(?:let me|i'm|i am|i'll|i will|i've|i have|i need|i can see|i see|i found|i understand|` +
    String.raw`i was|i tried|i apologi[sz]e|sorry|(?:we|you) need to|you(?:'ll| will| can| should)|` +
    String.raw`i think|next,? i|now,? (?:i|let|we)|first,? (?:i|let)|looking at|let's (?:check|look|see|read|` +
    String.raw`run|try|start|verify|find|first)|we need to (?:check|look|see|find|verify)|you're right|` +
    String.raw`great|perfect|excellent|ok|okay|sure|thanks|thank you|done|here's|here is|good|` +
    String.raw`voy a|déjame|ahora voy|primero,? voy|a continuación|estoy (?:revisando|leyendo|mirando))\b|` +
    '^(?:我来|让我|我先|我会|我将|我正在|接下来|下一步|现在我|首先)|' +
    '^(?:まず|次に|では)|(?:してみます|確認します|見てみます|調べます|しましょう)[。.]?$|' +
    '^(?:먼저|이제|다음으로)|(?:하겠습니다|보겠습니다|살펴볼게요|확인해 볼게요)[.]?$',
  'i',
);

/** Hedges and options only offered: a guess or a choice left open is not a decision or a finding. */
export const TENTATIVE = new RegExp(
  String.raw`\b(?:likely|probably|perhaps|maybe|might|may be|could|would|possibly|if you (?:want|prefer|` +
    String.raw`like)|you (?:can|could)|we (?:can|could)|option|alternatively|either|` +
    String.raw`will help (?:us|you)|assum(?:e|es|ing)|it appears|i (?:think|believe|suspect|guess)|can be|` +
    String.raw`you'll need to|it seems|seems to|appears to)\b|\bneed to\b.*\bor\b|` +
    String.raw`\bor\b.*\?|可能|也许|或者|可以考虑|かもしれ|でしょう|または|아마|수도 있|또는|` +
    String.raw`\b(?:quizás|tal vez|podría|podríamos|puedes)\b|` +
    // "It looks like …", "Parece que …", "似乎 …", "…ようです", "… 것 같습니다": a diagnosis still hedged.
    String.raw`\b(?:(?:it|this|that) looks like|looks like|seems like|parece que|parece ser|al parecer)\b|` +
    '似乎|看起来|看來|好像|应该是|ようです|ようだ|みたいです|と思われ|것 같|듯합니다|듯해요|것으로 보입니다',
  'i',
);

/** A sentence whose subject is elsewhere: it opens with a connective, or with a path or log prefix. */
export const NO_SUBJECT = new RegExp(
  String.raw`^(?:and|but|or|so|if|when|then|also|however|although|though|because|which|while|` +
    String.raw`otherwise|y|pero|si|o)\b|^\S*[/\\]\S*:\d+:|^#\s|^[-–—>]`,
  'i',
);

/** An agent's sentence whose subject is in another sentence ("This change …", "It uses …"): a restatement. */
export const POINTER_SUBJECT = new RegExp(
  String.raw`^(?:this|these|that|it|they)\b|^the (?:parameter|function|method|class|variable|file|test|change|` +
    String.raw`script|code|implementation|approach|rest)\b (?:is|was|will|has|now|should|can|of)\b`,
  'i',
);

/**
 * "X instead of Y" from the agent is a decision only as a change it made ("Used X", "we now use X"), not a
 * plan, a list item describing a diff, code that already did so, or a contrast reporting a problem.
 */
export const DONE_CHANGE = new RegExp(
  String.raw`^(?:used|switched|replaced|changed|moved|kept)\b|\b(?:we|i) now \w+|\b(?:we|i) (?:use|used|` +
    String.raw`switched|replaced|changed|moved|kept|chose)\b|\bnow (?:uses|use|returns|reads|calls)\b|` +
    String.raw`\bi(?:'ve| have) (?:updated|changed|replaced|switched|moved)\b`,
  'i',
);
export const NOT_DONE = /\b(?:will|'ll|should|let's|already|also|but)\b/i;

/**
 * A plan of the agent's ("we'll use X", "Xを使います", "X를 사용하겠습니다", "vamos a usar X"): a decision only
 * with a reason or an alternative. Japanese and Korean plans end in the polite non-past.
 */
export const AGENT_PLAN = new RegExp(
  String.raw`\b(?:we'll|we will|we should|let's|vamos a|voy a)\b|我会|我将|我們會|我们会|` +
    '(?:ます|ましょう)[。.!！]?$|(?:겠습니다|합니다|할게요)[.!]?$',
  'i',
);

/** A reason given in Chinese, Japanese, Korean or Spanish (English reasons are read by the rationale rule). */
export const INTL_RATIONALE = new RegExp(
  String.raw`(?:因为|因為|由于|由於)\s*(.+?)(?:[，,。；]|$)|^(.+?)(?:のため|ので|だから)[、,]|` +
    String.raw`^(.+?)(?:때문에|므로)\s*,?|\b(?:porque|ya que|debido a)\s+(.+?)(?:[.;]|$)`,
  'i',
);

/** A list item of a report ("Theme: …", "\x60ask\x60 - …"): a detail of something else, not an event. */
export const LABELLED_ITEM =
  /^(?!(?:note|important|warning|decision|fact|bug)\b)[^\s:](?:[^:.]|\.(?=\S)){0,38}:\s|^\x60[^\x60]+\x60 [-–—] /i;

/** A short reply that accepts what was offered, in the five languages. */
export const ACCEPT = new RegExp(
  String.raw`^(?:yes|yeah|yep|sure|ok(?:ay)?|go ahead|do it|please do|sounds good|let's do (?:it|that)|all of (?:it|` +
    String.raw`them)|sí|si|dale|claro|adelante|hazlo)\b[^?]{0,60}$|` +
    String.raw`^(?:好的?|可以|行|是的|就这样|はい|お願い|네|좋아요|좋습니다)[^?？]{0,30}$|` +
    // A short "(then) fix / do it" in Korean, Chinese or Japanese accepts what was just offered.
    String.raw`^(?:응|그래|ㅇㅇ|그럼)?\s*(?:바로\s*)?(?:수정|진행|적용|변경)?\s*해\s*(?:줘|주세요)[.!]?$|^(?:那就)?(?:改|修复|修改)吧[。!！]?$|` +
    String.raw`^(?:では)?(?:修正|対応)して(?:ください)?[。!！]?$`,
  'i',
);

/** The last sentence of an agent message that hands the choice back to the user. */
export const OFFER = new RegExp(
  String.raw`\b(?:want me to|would you like|should i|shall i|do you want|let me know)\b|` +
    '¿quieres|要不要|需要我|しますか|할까요',
  'i',
);

/** Tool failures of the agent's own making (a refused permission, a stale edit), not the project's bugs. */
export const HARNESS_FAILURE = new RegExp(
  /doesn't want to proceed|tool use was rejected|<tool_use_error>|has been modified since read|/.source +
    /string to replace not found|file has not been read yet|could not apply [0-9a-f]+|^CONFLICT\b|/.source +
    /Recorded resolution|:eperm\b|\bsandbox(?:ed|ing)?\b/.source,
  'i',
);

/** A line of tool output that names an error (preferred over an uninformative first line). */
export const ERROR_LINE = new RegExp(
  String.raw`\b(?:error|failed|failure|cannot|can't|not found|no such|exception|undefined|denied|refused|` +
    String.raw`missing|invalid|unexpected|panicked|traceback)\b`,
  'i',
);

/** Where the agent says code keeps a value: a description of the code, not a fact worth a logbook line. */
export const DESCRIPTIVE_FACT = new RegExp(
  String.raw`\b(?:is (?:stored|located|defined|configured) in|defaults? to|por defecto)\b|` +
    String.raw`^we (?:return|pass|set|add|call)\b|默认|デフォルト|기본값`,
  'i',
);

export const FIXED_LEAD = /^(?:\u2705\s*)?fixed\b/i;

/** A sentence that says there is no problem ("YAML 문제는 없습니다", "没有问题"): never a bug. */
export const NO_PROBLEM = new RegExp(
  String.raw`\bno (?:issue|problem|error)s?\b|\b(?:is|was|are|were)(?:n't| not) (?:an? )?(?:issue|problem|bug)\b|` +
    String.raw`\bno hay (?:ningún )?(?:problema|error)|没有问题|没问题|不是问题|問題(?:は|が)?(?:ありません|ない)|` +
    '문제(?:는|가)? ?없',
  'i',
);

/** Korean "때문에" (because) names a bug's cause only beside a word for a failure. */
export const KO_BECAUSE_PROBLEM = /때문에/;
export const KO_PROBLEM_WORD = /오류|에러|문제|버그|실패|안 ?되|않|깨지|깨져|충돌|예외|error|fail/i;

/** A sentence that reports a fix done (not another guess at the cause). */
export const FIX_DONE =
  /\bfix(?:ed|es)\b|\bnow (?:passes|works)\b|\bsucceeded\b|修复|解决|修正|수정|해결|arregl|correg|soluci/i;

/** Something a diagnosis can be checked against: code, a path, a file, an identifier or a quoted string. */
export const CONCRETE = new RegExp(
  String.raw`\x60[^\x60]+\x60|\S+[/\\]\S+|\b\w+\.[a-z]{1,5}\b|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b\w+_\w+|` +
    String.raw`"[^"]+"|\b[A-Z]{2,}\b`,
);

/** The user saying a failure is still there after a fix, in the five languages. */
export const STILL_FAILING = new RegExp(
  String.raw`\bstill (?:fail\w*|broken|not|doesn't|does not|happen\w*|get(?:ting)?|see|there|the same|crash\w*)\b|` +
    String.raw`\bsame (?:error|problem|issue)\b|\bnot (?:fixed|working)\b|还是(?:一样|不行|报错|有问题|没|不)|仍然|依然|` +
    String.raw`まだ(?:直|エラー|同じ|動かな)|여전히|아직도? 안|\b(?:sigue (?:fallando|sin|igual|dando)|todavía no|aún no)\b`,
  'i',
);

// The episodes of the user's turns (logbook-episodes.ts): problems reported, replies that judge the work,
// requests, chores, and the agent's accounts of a change.

/** A user reporting something wrong, in the five languages. */
export const PROBLEM = new RegExp(
  [
    String.raw`\b(?:doesn't|does not|didn't|did not|isn't|is not|won't|can't|cannot|not) (?:work\w*|load\w*|show\w*|` +
      String.raw`appear\w*|display\w*|update\w*|render\w*|start\w*|open\w*|save\w*|run\w*|build\w*|` +
      String.raw`trigger\w*|refresh\w*)\b|\b(?:can'?t|cannot|don'?t) see\b|\bnot (?:be )?able to\b|\bunable to\b|` +
      String.raw`\b(?:causes?|there(?:'s| is)|(?:i|we) (?:have|get|got)) an? (?:problem|issue)\b`,
    String.raw`\b(?:errors?(?! (?:handling|messages?|codes?|boundar\w*|types?|pages?|states?))|exception|crash\w*|` +
      String.raw`broken|bug|fails?|failing|failed|wrong|missing|annoying|duplicated?|twice|stuck|freez\w*|hangs?|` +
      String.raw`blank|empty|invalid|undefined|does nothing|nothing happens)\b`,
    String.raw`\bno (?:carga|funciona|aparece|muestra|se ve|sale|anda|guarda|abre)\b|\bno (?:se )?est[aá] ` +
      String.raw`(?:cargando|funcionando|mostrando|andando|guardando|ocultando)\b|` +
      String.raw`\b(?:falla|fallo|roto|vac[ií]o)\b|\bno se (?:borra|carga|muestra|guarda|actualiza|ve|elimina)\b|` +
      String.raw`\bpinch\w+|no (?:creo|parece) que est[eé] bien`,
    String.raw`\bwithout (?:the|its|any) \w+|\bdid not (?:update|change|build|publish)\b`,
    // "编程问题" asks questions about programming: no problem reported.
    '不(?:显示|工作|能用|能|行|对|出来|生效)|无法|没反应|报错|错误|失败|(?<!编程|常见|面试|技术|学习|用户)问题|重复|异常|卡住|' +
      '卡死|出不来|白屏',
    '안 ?(?:돼|되|보|나와|나오|뜨|떠|맞)|되지 않|안보|오류|에러|문제|이상함|이상해|이상하|깨져|실패|버그|중복',
    'エラー|動かない|表示されない|おかしい|失敗|バグ|できない|効かない|反映されない|重複',
  ].join('|'),
  'iu',
);

/** The user asking to undo or calling the result wrong (besides STILL_FAILING and NOT_WORKING). */
export const REJECTED = new RegExp(
  String.raw`^(?:no\b|nope\b|wrong\b)|\b(?:revert|undo|roll ?back|go back to|put (?:it|that) back|` +
    String.raw`(?:seems|is) not (?:to be )?it|not what i ` +
    String.raw`(?:asked|wanted|meant)|that's (?:wrong|not right))\b|\b(?:no quiero eso|deshaz|revierte|vuelve a)\b|` +
    '撤销|回滚|不对|不是这样|恢复原|되돌려|원래대로|아니(?:야|요|라)|元に戻|戻して|違う|違います',
  'iu',
);

/** The user steering away from what was just done ("instead …", "actually …"): the episode is superseded. */
export const REDIRECT = /\b(?:instead|actually|rather)\b|en (?:lugar|vez) de|而不是|换成|대신|代わりに/i;

/** An agent's sentence that narrates, restates the request or describes instead of stating a change. */
export const NO_CHANGE_SAID = new RegExp(
  String.raw`^(?:let me|i'll|i will|i need|i can see|i see|now,? (?:i|let)|perfect|entiendo|veo|no veo|te ayudo|` +
    String.raw`ya que|voy a|déjame|perfecto|excelente|ahora voy|(?:no )?quieres|you want|you'd like|necesito|` +
    String.raw`tengo que|debo|vamos a|hay que|we need to|i have to|wait|the user (?:said|says|wants|asked))\b|` +
    '^(?:我来|让我|我先|我会|好的|明白|这样|这些修改|如果|首先|然后|接下来|需要|我看到|我发现|我注意到)|^(?:了解|承知)|' +
    '必要があります|^もし|' +
    '(?:하겠습니다|할게요|해 ?볼게요|해야 합니다)[.]?$|(?:します|していきます|中です)[。.]?$|' +
    String.raw`^(?:haz clic|click|<|read file|tool use)|^no (?:implementé|hice|he)(?=\s)|` +
    String.raw`^i (?:didn't|did not|haven't|forgot)\b|^(?:没有|我没)|하지 않았|していませんでした`,
  'iu',
);

/** Turns that ask for chores (commit, push, tests, "continue"): no decision of the project. */
export const CHORE = new RegExp(
  String.raw`^(?:(?:please\s+)?(?:commit|push|merge|deploy|run (?:the )?(?:tests?|build|lint))\b.{0,40}|` +
    String.raw`(?:continue|go on|keep going|proceed|next|retry|try again)(?: please)?|` +
    '(?:커밋|푸시|푸쉬|진행|계속)[ 하해줘주세요&및]*|(?:提交|推送|继续)[吧一下]*|(?:コミット|プッシュ|続けて)[してください]*|' +
    String.raw`(?:contin[uú]a|sigue)(?: adelante| as[ií])?|haz (?:commit|push)\b.{0,30})[.!。]?$`,
  'iu',
);

/** A change named in a summary's list ("x축 범위 수정: …", "A → B", "に変更"), besides CHANGE_STATED. */
export const CHANGE_WORDS = new RegExp(
  String.raw`(?:수정|변경|추가|삭제|개선|적용|제거|교체)(?:[:：]|했|됨|하고|\s*완료)|` +
    '(?:に変更|を追加|を削除|に修正|を修正|に置き換)|(?:改为|改成|添加了?|删除了?|移除了?|修改了?|替换为)|' +
    String.raw`\b(?:cambiado|agregado|añadido|eliminado|modificado|actualizado|corregido|implementado)\b`,
  'iu',
);

/** A sentence that asks for something or sets a rule, in the five languages (not a complaint or filler). */
export const ASK = new RegExp(
  [
    String.raw`\b(?:please|can you|could you|let's|should|must|needs? to|have to|want|make|add|remove|use|change|` +
      String.raw`create|implement|move|rename|keep|don't|do not|never|always)\b`,
    String.raw`\b(?:debe|deben|deber[ií]a|quiero|necesito|hay que|haz|agrega|añade|quita|elimina|cambia|usa|crea|` +
      String.raw`hace que|hac[eé]|pon[eé]|sac[aá]|agreg[aá]|cambi[aá])\b`,
    '请|要|应该|必须|需要|帮我|把|改成|不要|添加|删除|去掉',
    '해 ?줘|해 ?주세요|해야|하도록|되도록|하자|바꿔|추가|삭제|변경',
    'して|ください|にして|にする|したい|べき|を使',
  ].join('|'),
  'iu',
);

/** A plan stated as a finding ("El problema es que necesitamos …", "we need to …"). */
export const PLAN = /\b(?:we need to|need to|necesitamos|hay que|tenemos que)\b|需要|必要があります|해야/i;
/** A note the agent marks as one to keep ("Note that …", "Important: …"). */
export const NOTED = /^(?:note that|important(?:ly)?[:,]|注意|重要|참고)/i;

/** A standing rule the user states ("must be", "never", "always"): a fact even beside a request. */
export const RULE = /\b(?:must(?: not)? (?:be|stay|run|use|have)|never|always)\b/i;
