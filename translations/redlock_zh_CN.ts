<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>ConnectionProfile</name>
    <message>
        <source>&quot;%1&quot;: put no password in the address; name an environment variable or ask at connect</source>
        <translation>“%1”：地址中不能包含密码；请指定一个环境变量，或在连接时询问</translation>
    </message>
    <message>
        <source>the profile needs a name</source>
        <translation>配置需要一个名称</translation>
    </message>
    <message>
        <source>add at least one node</source>
        <translation>请至少添加一个节点</translation>
    </message>
    <message>
        <source>node %1: %2</source>
        <translation>节点 %1：%2</translation>
    </message>
    <message>
        <source>the refresh interval must be at least 200 ms</source>
        <translation>刷新间隔至少为 200 毫秒</translation>
    </message>
    <message>
        <source>the key pattern is empty (use * for every key)</source>
        <translation>键模式为空（用 * 匹配所有键）</translation>
    </message>
    <message>
        <source>node %1: the environment variable %2 is not set</source>
        <translation>节点 %1：环境变量 %2 未设置</translation>
    </message>
    <message>
        <source>node %1: no password given</source>
        <translation>节点 %1：未提供密码</translation>
    </message>
    <message>
        <source>profile &quot;%1&quot; in %2: %3</source>
        <translation>连接配置“%1”（位于 %2）：%3</translation>
    </message>
    <message>
        <source>node %1: the password could not be read from the keyring: %2</source>
        <translation>节点 %1：无法从密钥环读取密码：%2</translation>
    </message>
    <message>
        <source>SSH route: %1</source>
        <translation>SSH 路由：%1</translation>
    </message>
    <message>
        <source>node %1 is a unix socket: it cannot be reached over SSH</source>
        <translation>节点 %1 是 unix 套接字：无法通过 SSH 访问</translation>
    </message>
    <message>
        <source>an ssh config file needs an SSH route</source>
        <translation>指定 ssh 配置文件时需要同时指定 SSH 路由</translation>
    </message>
    <message>
        <source>The password could not be read from the keyring: %1</source>
        <translation>无法从密钥环读取密码：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Monitoring and admin console for Redlock distributed locks over N independent Redis masters.</source>
        <translation>基于 N 个相互独立的 Redis 主节点的 Redlock 分布式锁监控与管理控制台。</translation>
    </message>
    <message>
        <source>Comma-separated nodes: host:port, unix:/path, redis://…</source>
        <translation>以逗号分隔的节点：host:port、unix:/路径、redis://…</translation>
    </message>
    <message>
        <source>list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>Key pattern of the locks to watch (SCAN MATCH glob).</source>
        <translation>要监视的锁的键模式（SCAN MATCH 通配符）。</translation>
    </message>
    <message>
        <source>glob</source>
        <translation>通配符</translation>
    </message>
    <message>
        <source>Connect with a saved profile.</source>
        <translation>使用已保存的连接配置进行连接。</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Start a local 5-node cluster with contending clients.</source>
        <translation>启动一个本地 5 节点集群以及相互竞争的客户端。</translation>
    </message>
    <message>
        <source>Render the window after the first full refresh to a PNG file and exit.</source>
        <translation>在第一次完整刷新后将窗口渲染为 PNG 文件并退出。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>User interface language, e.g. zh_CN or en.</source>
        <translation>界面语言，例如 zh_CN 或 en。</translation>
    </message>
    <message>
        <source>locale</source>
        <translation>语言区域</translation>
    </message>
    <message>
        <source>Refuse every action that writes to the nodes.</source>
        <translation>拒绝所有会写入节点的操作。</translation>
    </message>
    <message>
        <source>Clock drift factor (default 0.01).</source>
        <translation>时钟漂移系数（默认 0.01）。</translation>
    </message>
    <message>
        <source>factor</source>
        <translation>系数</translation>
    </message>
    <message>
        <source>With --screenshot: wait this many seconds after the first full refresh, so the live charts have a history (default 0).</source>
        <translation>与 --screenshot 一起使用：第一次完整刷新后再等待这么多秒，使实时图表有历史数据（默认 0）。</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒数</translation>
    </message>
    <message>
        <source>--screenshot-delay must be a number of seconds from 0 to 600</source>
        <translation>--screenshot-delay 必须是 0 到 600 之间的秒数</translation>
    </message>
    <message>
        <source>Dark colours (the Fusion style with a dark palette) whatever the desktop&apos;s theme.</source>
        <translation>深色配色（Fusion 风格加深色调色板），不论桌面主题如何。</translation>
    </message>
    <message>
        <source>Also serve the watched cluster&apos;s state to Prometheus on http://ADDRESS:PORT/metrics (as `redlock exporter` does), e.g. 127.0.0.1:9721.</source>
        <translation>同时在 http://地址:端口/metrics 上向 Prometheus 提供所监视集群的状态（与 `redlock exporter` 相同），例如 127.0.0.1:9721。</translation>
    </message>
    <message>
        <source>address:port</source>
        <translation>地址:端口</translation>
    </message>
    <message>
        <source>bad --metrics-listen: %1</source>
        <translation>--metrics-listen 无效：%1</translation>
    </message>
    <message>
        <source>Keep no lock history.</source>
        <translation>不保留锁历史。</translation>
    </message>
    <message>
        <source>--journal and --no-journal exclude each other</source>
        <translation>--journal 与 --no-journal 不能同时使用</translation>
    </message>
    <message>
        <source>Show this dock at start: history, alerts or testBench (may be given more than once).</source>
        <translation>启动时显示此停靠面板：history、alerts 或 testBench（可多次给出）。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <source>file|URL</source>
        <translation>文件|URL</translation>
    </message>
    <message>
        <source>With --screenshot: render the connection profiles dialog (with --profile selected) instead of the window, connecting nowhere.</source>
        <translation>与 --screenshot 一起使用：渲染连接配置对话框（选中 --profile 指定的配置）而不是主窗口，不进行任何连接。</translation>
    </message>
    <message>
        <source>--screenshot-profiles needs --screenshot</source>
        <translation>--screenshot-profiles 需要 --screenshot</translation>
    </message>
    <message>
        <source>The lock history journal to write and show (default: history.sqlite in the application data folder; with --demo a temporary one), or a team&apos;s shared history in PostgreSQL: postgresql://user@host[:port]/database (the password from PGPASSWORD or ~/.pgpass, else from the desktop keyring or asked once; never in the URL or the profile).</source>
        <translation>要写入和显示的锁历史日志（默认：应用数据文件夹中的 history.sqlite；使用 --demo 时为临时文件），或团队在 PostgreSQL 中共享的历史：postgresql://user@host[:port]/database（密码取自 PGPASSWORD 或 ~/.pgpass，否则取自桌面密钥环或询问一次；绝不放在 URL 或配置文件中）。</translation>
    </message>
</context>
<context>
    <name>redlock::AlertMonitor</name>
    <message>
        <source>lock held too long</source>
        <translation>锁持有过久</translation>
    </message>
    <message>
        <source>lock contested</source>
        <translation>锁争用</translation>
    </message>
    <message>
        <source>minority leftover</source>
        <translation>少数派残留</translation>
    </message>
    <message>
        <source>quorum lost</source>
        <translation>失去法定数量</translation>
    </message>
    <message>
        <source>node down</source>
        <translation>节点离线</translation>
    </message>
    <message>
        <source>severe audit finding</source>
        <translation>严重审计发现</translation>
    </message>
    <message>
        <source>clock offset</source>
        <translation>时钟偏移</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>node %1 (%2)</source>
        <translation>节点 %1（%2）</translation>
    </message>
    <message>
        <source>%1 is down (%2)</source>
        <translation>%1 离线（%2）</translation>
    </message>
    <message>
        <source>%1 is down (%2: %3)</source>
        <translation>%1 离线（%2：%3）</translation>
    </message>
    <message>
        <source>the clock of %1 is %2 ms off, beyond the drift budget of %3 ms</source>
        <translation>%1 的时钟偏差 %2 毫秒，超出 %3 毫秒的漂移预算</translation>
    </message>
    <message>
        <source>only %1 of %2 nodes are up (quorum %3): no lock can be granted or released</source>
        <translation>%2 个节点中只有 %1 个在线（法定数量 %3）：无法授予或释放任何锁</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>lock %1 held by %2 for longer than %3</source>
        <translation>锁 %1 被 %2 持有超过 %3</translation>
    </message>
    <message>
        <source>lock %1 contested by %2 tokens, none on a quorum, for longer than %3</source>
        <translation>锁 %1 被 %2 个令牌争用（均未达到法定数量）超过 %3</translation>
    </message>
    <message>
        <source>lock %1: a leftover on %2 of %3 nodes, older than %4 (a failed or half-released acquire)</source>
        <translation>锁 %1：%3 个节点中有 %2 个上的残留，存在已超过 %4（一次失败或只释放了一半的获取）</translation>
    </message>
    <message>
        <source>lock %1: a value without expiry on %2 of %3 nodes (%4): it never goes away by itself</source>
        <translation>锁 %1：%3 个节点中有 %2 个上存在没有过期时间的值（%4）：它永远不会自行消失</translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s), e.g. %1</source>
        <translation>
            <numerusform>%n 个锁，例如 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s), e.g. %1</source>
        <translation>
            <numerusform>%n 条告警，例如 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::AlertThresholdsDialog</name>
    <message>
        <source>One holder keeps a lock longer than:</source>
        <translation>同一持有者持有锁超过：</translation>
    </message>
    <message>
        <source>A lock stays contested (no token on a quorum) longer than:</source>
        <translation>锁持续争用（没有令牌达到法定数量）超过：</translation>
    </message>
    <message>
        <source>A minority leftover is older than:</source>
        <translation>少数派残留存在超过：</translation>
    </message>
    <message>
        <source>Fewer than a quorum of nodes are up for:</source>
        <translation>在线节点少于法定数量持续：</translation>
    </message>
    <message>
        <source>A node is unreachable for:</source>
        <translation>节点不可达持续：</translation>
    </message>
    <message>
        <source>The safety audit has a severe finding for:</source>
        <translation>安全审计存在严重发现持续：</translation>
    </message>
    <message>
        <source>A node&apos;s clock is off by more than the drift budget for:</source>
        <translation>节点时钟偏差超出漂移预算持续：</translation>
    </message>
    <message>
        <source>Alert thresholds</source>
        <translation>告警阈值</translation>
    </message>
    <message>
        <source>An alert is raised when its condition has lasted the time given here, and cleared when the condition has been gone for the hysteresis below. The clock-offset budget is the Redlock drift of the largest TTL in use.</source>
        <translation>当条件持续达到此处给定的时间时触发告警；当条件消失的时间达到下面的滞后时间时清除告警。时钟偏移预算是当前所用最大 TTL 的 Redlock 漂移。</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Clear an alert when its condition has been gone for:</source>
        <translation>条件消失多久后清除告警：</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>Remind of an unacknowledged alert every:</source>
        <translation>未确认的告警每隔多久提醒一次：</translation>
    </message>
</context>
<context>
    <name>redlock::AlertsFeature</name>
    <message>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>A&amp;lerts</source>
        <translation>告警(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Alerts panel</source>
        <translation>告警面板(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Thresholds…</source>
        <translation>阈值(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Unmute all</source>
        <translation>全部取消静音(&amp;U)</translation>
    </message>
    <message>
        <source>Redlock Console</source>
        <translation>Redlock 控制台</translation>
    </message>
    <message>
        <source>Notifications go to the system tray.</source>
        <translation>通知发送到系统托盘。</translation>
    </message>
    <message>
        <source>No system tray here: alerts notify in the status bar and open this panel.</source>
        <translation>此处没有系统托盘：告警在状态栏中通知并打开此面板。</translation>
    </message>
    <message>
        <source>Alerts (%1)</source>
        <translation>告警（%1）</translation>
    </message>
    <message>
        <source>Redlock alert (reminder): %1</source>
        <translation>Redlock 告警（提醒）：%1</translation>
    </message>
    <message>
        <source>Redlock alert: %1</source>
        <translation>Redlock 告警：%1</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>alert</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>alert cleared</source>
        <translation>告警已清除</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>redlock::AlertsModel</name>
    <message>
        <source>cleared</source>
        <translation>已清除</translation>
    </message>
    <message>
        <source>acknowledged</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>muted</source>
        <translation>已静音</translation>
    </message>
    <message>
        <source>active</source>
        <translation>活动</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>开始于</translation>
    </message>
    <message>
        <source>Raised</source>
        <translation>触发于</translation>
    </message>
    <message>
        <source>Cleared</source>
        <translation>清除于</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>redlock::AlertsPanel</name>
    <message>
        <source>&amp;Acknowledge</source>
        <translation>确认(&amp;A)</translation>
    </message>
    <message>
        <source>The alert stays listed and stops notifying</source>
        <translation>告警保留在列表中，不再通知</translation>
    </message>
    <message>
        <source>Mute rule</source>
        <translation>静音规则</translation>
    </message>
    <message>
        <source>Mute key or node</source>
        <translation>静音键或节点</translation>
    </message>
    <message>
        <source>&amp;Unmute all</source>
        <translation>全部取消静音(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Thresholds…</source>
        <translation>阈值(&amp;T)…</translation>
    </message>
    <message>
        <source>for 15 minutes</source>
        <translation>15 分钟</translation>
    </message>
    <message>
        <source>for 1 hour</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <source>for 8 hours</source>
        <translation>8 小时</translation>
    </message>
    <message>
        <source>for 24 hours</source>
        <translation>24 小时</translation>
    </message>
</context>
<context>
    <name>redlock::AuditLog</name>
    <message>
        <source>cannot open the audit log %1: %2</source>
        <translation>无法打开审计日志 %1：%2</translation>
    </message>
    <message>
        <source>cannot write the audit log %1: %2</source>
        <translation>无法写入审计日志 %1：%2</translation>
    </message>
    <message>
        <source>cannot sync the audit log %1 to disk: %2</source>
        <translation>无法将审计日志 %1 同步到磁盘：%2</translation>
    </message>
    <message>
        <source>cannot sync the audit log folder %1 to disk: %2</source>
        <translation>无法将审计日志文件夹 %1 同步到磁盘：%2</translation>
    </message>
    <message>
        <source>cannot create the audit log folder %1 (%2)</source>
        <translation>无法创建审计日志文件夹 %1（%2）</translation>
    </message>
</context>
<context>
    <name>redlock::AuditLogDialog</name>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Per-node result</source>
        <translation>各节点结果</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message numerus="yes">
        <source>%n entr(ies) in %1</source>
        <translation>
            <numerusform>%1 中有 %n 条记录</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unreadable line(s) skipped</source>
        <translation>
            <numerusform>跳过了 %n 行无法读取的内容</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::BenchPanel</name>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Fencing token</source>
        <translation>防护令牌</translation>
    </message>
    <message>
        <source>Auto-extend</source>
        <translation>自动续期</translation>
    </message>
    <message>
        <source>Resource:</source>
        <translation>资源：</translation>
    </message>
    <message>
        <source>TTL:</source>
        <translation>TTL：</translation>
    </message>
    <message>
        <source>Retries:</source>
        <translation>重试次数：</translation>
    </message>
    <message>
        <source>Retry delay:</source>
        <translation>重试延迟：</translation>
    </message>
    <message>
        <source>Retry jitter:</source>
        <translation>重试抖动：</translation>
    </message>
    <message>
        <source>Drift factor:</source>
        <translation>时钟漂移系数：</translation>
    </message>
    <message>
        <source>Clients (K):</source>
        <translation>客户端数（K）：</translation>
    </message>
    <message>
        <source>Iterations:</source>
        <translation>迭代次数：</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Acquire</source>
        <translation>获取</translation>
    </message>
    <message>
        <source>Extend</source>
        <translation>续期</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>No lock held.</source>
        <translation>未持有锁。</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Extensions:</source>
        <translation>续期记录：</translation>
    </message>
    <message>
        <source>Run K × iterations</source>
        <translation>运行 K × 迭代次数</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>尚未运行。</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Acquire latency</source>
        <translation>获取延迟</translation>
    </message>
    <message>
        <source>Single lock</source>
        <translation>单个锁</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>批量运行</translation>
    </message>
    <message>
        <source>Read-only mode: the test bench writes locks and is disabled.</source>
        <translation>只读模式：测试台会写入锁，已禁用。</translation>
    </message>
    <message>
        <source>Acquiring…</source>
        <translation>正在获取…</translation>
    </message>
    <message numerus="yes">
        <source>Not acquired after %n attempt(s): %1</source>
        <translation>
            <numerusform>尝试 %n 次后仍未获取：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Released on %1 of %2 nodes.</source>
        <translation>已在 %2 个节点中的 %1 个上释放。</translation>
    </message>
    <message>
        <source>Release incomplete (%1 of %2 nodes): %3</source>
        <translation>释放不完整（%2 个节点中的 %1 个）：%3</translation>
    </message>
    <message>
        <source>held by %1 (PTTL %2 ms)</source>
        <translation>由 %1 持有（PTTL %2 毫秒）</translation>
    </message>
    <message>
        <source>fence %1</source>
        <translation>防护令牌 %1</translation>
    </message>
    <message>
        <source>; fencing token %1</source>
        <translation>；防护令牌 %1</translation>
    </message>
    <message>
        <source>; auto-extended</source>
        <translation>；自动续期</translation>
    </message>
    <message>
        <source>%1 extended on %2 of %3 nodes in %4, validity %5 ms</source>
        <translation>%1 在 %3 个节点中的 %2 个上续期，耗时 %4，有效期 %5 毫秒</translation>
    </message>
    <message>
        <source>%1 extension failed (%2 of %3 nodes): %4</source>
        <translation>%1 续期失败（%3 个节点中的 %2 个）：%4</translation>
    </message>
    <message>
        <source>the lock could not be kept</source>
        <translation>无法保持该锁</translation>
    </message>
    <message>
        <source>LOST: %1</source>
        <translation>已丢失：%1</translation>
    </message>
    <message>
        <source>Running %1 clients × %2 iterations…</source>
        <translation>正在运行 %1 个客户端 × %2 次迭代…</translation>
    </message>
    <message>
        <source>%1 of %2 acquires succeeded (%3 %) in %4 ms · latency p50 %5, p99 %6 · contention seen in %7 acquire(s)</source>
        <translation>%2 次获取中成功 %1 次（%3 %），耗时 %4 毫秒 · 延迟 p50 %5，p99 %6 · %7 次获取遇到争用</translation>
    </message>
    <message>
        <source>Acquires</source>
        <translation>获取次数</translation>
    </message>
    <message>
        <source>latency from (ms)</source>
        <translation>延迟起点（毫秒）</translation>
    </message>
    <message>
        <source>acquires</source>
        <translation>获取次数</translation>
    </message>
    <message>
        <source>Export run as JSON</source>
        <translation>将运行结果导出为 JSON</translation>
    </message>
    <message>
        <source>Export run as CSV</source>
        <translation>将运行结果导出为 CSV</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON（*.json）</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV（*.csv）</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Held: validity %1 ms of TTL %2 ms; token %3</source>
        <translation>已持有：有效期 %1 毫秒（TTL %2 毫秒）；令牌 %3</translation>
    </message>
</context>
<context>
    <name>redlock::ChartsPanel</name>
    <message>
        <source>Latency per node</source>
        <translation>各节点延迟</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Clock offset per node</source>
        <translation>各节点时钟偏移</translation>
    </message>
    <message>
        <source>Lock activity</source>
        <translation>锁活动</translation>
    </message>
    <message>
        <source>per s</source>
        <translation>次/秒</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>acquired</source>
        <translation>获取</translation>
    </message>
    <message>
        <source>released/expired</source>
        <translation>释放/过期</translation>
    </message>
    <message>
        <source>contention</source>
        <translation>争用</translation>
    </message>
    <message>
        <source>failed (own)</source>
        <translation>失败（本控制台客户端）</translation>
    </message>
</context>
<context>
    <name>redlock::ClusterController</name>
    <message>
        <source>SSH: %1</source>
        <translation>SSH：%1</translation>
    </message>
    <message>
        <source>connecting through the SSH tunnel via %1</source>
        <translation>正在通过经由 %1 的 SSH 隧道连接</translation>
    </message>
</context>
<context>
    <name>redlock::ClusterWatch</name>
    <message>
        <source>no nodes to watch</source>
        <translation>没有要监视的节点</translation>
    </message>
</context>
<context>
    <name>redlock::CommandRestartBackend</name>
    <message>
        <source>no program configured</source>
        <translation>未配置程序</translation>
    </message>
    <message>
        <source>%1 could not be started: %2</source>
        <translation>%1 无法启动：%2</translation>
    </message>
    <message>
        <source>%1 did not finish within %2 ms and was killed</source>
        <translation>%1 未在 %2 毫秒内结束，已被强制终止</translation>
    </message>
    <message>
        <source>%1 crashed</source>
        <translation>%1 崩溃</translation>
    </message>
    <message>
        <source>%1 exited with code %2</source>
        <translation>%1 退出，退出码 %2</translation>
    </message>
</context>
<context>
    <name>redlock::ConnectionCheck</name>
    <message>
        <source>unix socket %1</source>
        <translation>unix 套接字 %1</translation>
    </message>
    <message>
        <source>TCP %1:%2</source>
        <translation>TCP %1:%2</translation>
    </message>
    <message>
        <source>connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>TLS handshake</source>
        <translation>TLS 握手</translation>
    </message>
    <message>
        <source>certificate verified</source>
        <translation>证书已验证</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>handshake</source>
        <translation>握手</translation>
    </message>
    <message>
        <source>default user</source>
        <translation>默认用户</translation>
    </message>
    <message>
        <source>database %1</source>
        <translation>数据库 %1</translation>
    </message>
    <message>
        <source>PONG</source>
        <translation>PONG</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>master</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>%1: a replica cannot hold Redlock locks</source>
        <translation>%1：副本节点不能持有 Redlock 锁</translation>
    </message>
    <message>
        <source>keyspace events</source>
        <translation>键空间事件</translation>
    </message>
    <message>
        <source>off: the console refreshes by scanning only</source>
        <translation>关闭：控制台只能通过扫描来刷新</translation>
    </message>
    <message>
        <source>&quot;%1&quot;</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>unknown (CONFIG refused)</source>
        <translation>未知（CONFIG 被拒绝）</translation>
    </message>
</context>
<context>
    <name>redlock::ConsoleLauncher</name>
    <message>
        <source>Demo: local 5-node cluster with contending clients</source>
        <translation>演示：本地 5 节点集群与相互竞争的客户端</translation>
    </message>
    <message>
        <source>--nodes: %1</source>
        <translation>--nodes：%1</translation>
    </message>
    <message>
        <source>no profile named &quot;%1&quot; (saved profiles: %2)</source>
        <translation>没有名为“%1”的连接配置（已保存的配置：%2）</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Password for node %1 (%2):</source>
        <translation>节点 %1（%2）的密码：</translation>
    </message>
    <message>
        <source>--screenshot needs something to show: --demo, --nodes or --profile</source>
        <translation>--screenshot 需要可显示的内容：--demo、--nodes 或 --profile</translation>
    </message>
    <message>
        <source>Cannot connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>cannot write the screenshot to %1</source>
        <translation>无法将截图写入 %1</translation>
    </message>
    <message>
        <source>screenshot saved to %1</source>
        <translation>截图已保存到 %1</translation>
    </message>
    <message>
        <source>Redlock Console</source>
        <translation>Redlock 控制台</translation>
    </message>
    <message>
        <source>--metrics-listen: %1</source>
        <translation>--metrics-listen：%1</translation>
    </message>
</context>
<context>
    <name>redlock::DatabasePasswordDialog</name>
    <message>
        <source>Remember in keyring</source>
        <translation>记住在密钥环中</translation>
    </message>
    <message>
        <source>Lock history password</source>
        <translation>锁历史密码</translation>
    </message>
    <message>
        <source>The lock history at %1 needs a password (none in PGPASSWORD or ~/.pgpass).</source>
        <translation>%1 的锁历史需要密码（PGPASSWORD 和 ~/.pgpass 中都没有）。</translation>
    </message>
    <message>
        <source>Kept in the desktop keyring (Secret Service), never in the profile file.</source>
        <translation>保存在桌面密钥环（Secret Service）中，绝不写入配置文件。</translation>
    </message>
</context>
<context>
    <name>redlock::DemoWorkload</name>
    <message>
        <source>cannot start the demo cluster: %1</source>
        <translation>无法启动演示集群：%1</translation>
    </message>
</context>
<context>
    <name>redlock::EventLogModel</name>
    <message>
        <source>previous token %1</source>
        <translation>之前的令牌 %1</translation>
    </message>
    <message>
        <source>token %1</source>
        <translation>令牌 %1</translation>
    </message>
    <message>
        <source>operator: %1</source>
        <translation>操作员：%1</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Lock key</source>
        <translation>锁键</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>token %1; nodes %2 restarted without it: its holder may still think it holds it</source>
        <translation>令牌 %1；节点 %2 重启后不再持有它：持有者可能仍以为自己持有该锁</translation>
    </message>
    <message>
        <source>token %1; already held when first seen: acquired earlier, when is not known</source>
        <translation>令牌 %1；首次看到时已被持有：获取时间更早，具体时间未知</translation>
    </message>
    <message>
        <source>; changed hands between %1 and %2, not observed</source>
        <translation>；在 %1 与 %2 之间易主，未观测到</translation>
    </message>
    <message>
        <source>token %1; ended between %2 and %3, not observed</source>
        <translation>令牌 %1；在 %2 与 %3 之间结束，未观测到</translation>
    </message>
</context>
<context>
    <name>redlock::EventLogPanel</name>
    <message>
        <source>Filter events by key, holder or detail</source>
        <translation>按键、持有者或详情过滤事件</translation>
    </message>
    <message>
        <source>All events</source>
        <translation>所有事件</translation>
    </message>
    <message>
        <source>Lock events</source>
        <translation>锁事件</translation>
    </message>
    <message>
        <source>Operator actions</source>
        <translation>操作员操作</translation>
    </message>
</context>
<context>
    <name>redlock::ForceRelease</name>
    <message>
        <source>no nodes configured</source>
        <translation>未配置节点</translation>
    </message>
    <message>
        <source>per-node timeout must be positive</source>
        <translation>单节点超时必须为正数</translation>
    </message>
    <message>
        <source>shutting down</source>
        <translation>正在关闭</translation>
    </message>
    <message>
        <source>read-only mode: force release refused</source>
        <translation>只读模式：拒绝强制释放</translation>
    </message>
    <message>
        <source>no lock key given</source>
        <translation>未指定锁键</translation>
    </message>
    <message>
        <source>the expected token is required: force release deletes only the token you saw</source>
        <translation>必须提供预期令牌：强制释放只删除您看到的那个令牌</translation>
    </message>
    <message>
        <source>a hash (Redisson-style lock): force release handles string locks only</source>
        <translation>这是一个哈希（Redisson 风格的锁）：强制释放只处理字符串类型的锁</translation>
    </message>
    <message>
        <source>a %1, not a lock value</source>
        <translation>这是 %1，不是锁的值</translation>
    </message>
    <message>
        <source>%1 (the compare-and-delete may or may not have run)</source>
        <translation>%1（比较并删除可能已执行，也可能未执行）</translation>
    </message>
    <message>
        <source>the audit log could not be written, so nothing was deleted: %1</source>
        <translation>无法写入审计日志，因此未删除任何内容：%1</translation>
    </message>
    <message>
        <source>unexpected reply from the node</source>
        <translation>节点返回了意外的回复</translation>
    </message>
    <message>
        <source>the lock-delay must be between 1 ms and %1 ms (0 deletes)</source>
        <translation>锁延迟必须在 1 毫秒到 %1 毫秒之间（0 表示删除）</translation>
    </message>
    <message>
        <source>no expiry: give the lock-delay in milliseconds, or 0 to delete</source>
        <translation>没有过期时间：请以毫秒给出锁延迟，或用 0 删除</translation>
    </message>
    <message>
        <source>the expected token was set again after the compare-and-set ran</source>
        <translation>比较并设置执行之后，预期令牌又被重新写入</translation>
    </message>
    <message>
        <source>%1 (the compare-and-set may or may not have run)</source>
        <translation>%1（比较并设置可能已执行，也可能未执行）</translation>
    </message>
</context>
<context>
    <name>redlock::ForceReleaseDialog</name>
    <message>
        <source>Force release</source>
        <translation>强制释放</translation>
    </message>
    <message>
        <source>Key:</source>
        <translation>键：</translation>
    </message>
    <message>
        <source>Holder:</source>
        <translation>持有者：</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <source>Token seen:</source>
        <translation>看到的令牌：</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>What happens</source>
        <translation>将执行的操作</translation>
    </message>
    <message>
        <source>Value found</source>
        <translation>找到的值</translation>
    </message>
    <message>
        <source>PTTL</source>
        <translation>PTTL</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Reading the key on every node…</source>
        <translation>正在读取该键在每个节点上的值…</translation>
    </message>
    <message>
        <source>Type the key name to confirm</source>
        <translation>输入键名以确认</translation>
    </message>
    <message>
        <source>Why (written to the audit log)</source>
        <translation>原因（写入审计日志）</translation>
    </message>
    <message>
        <source>Read-only mode: the preview is shown, nothing can be released.</source>
        <translation>只读模式：仅显示预览，无法释放任何锁。</translation>
    </message>
    <message>
        <source>not attempted</source>
        <translation>未尝试</translation>
    </message>
    <message>
        <source>delete: the token still equals the one shown</source>
        <translation>删除：令牌仍与显示的一致</translation>
    </message>
    <message>
        <source>skip: the token changed</source>
        <translation>跳过：令牌已变更</translation>
    </message>
    <message>
        <source>token changed: left to the new holder</source>
        <translation>令牌已变更：留给新的持有者</translation>
    </message>
    <message>
        <source>skip: the key is gone</source>
        <translation>跳过：键已不存在</translation>
    </message>
    <message>
        <source>gone: nothing to delete</source>
        <translation>已不存在：无需删除</translation>
    </message>
    <message>
        <source>not a string lock (%1): left alone</source>
        <translation>不是字符串类型的锁（%1）：未改动</translation>
    </message>
    <message>
        <source>unreachable: %1</source>
        <translation>不可达：%1</translation>
    </message>
    <message>
        <source>unreachable (the delete may or may not have run): %1</source>
        <translation>不可达（删除可能已执行，也可能未执行）：%1</translation>
    </message>
    <message>
        <source>refused by the node: %1</source>
        <translation>被节点拒绝：%1</translation>
    </message>
    <message>
        <source>Releasing…</source>
        <translation>正在释放…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <source>Preview: the lock would be deleted on %1 of %2 nodes; %3 unreachable.</source>
        <translation>预览：将在 %2 个节点中的 %1 个上删除该锁；%3 个不可达。</translation>
    </message>
    <message>
        <source>Deleted on %1 of %2 nodes; left to a new holder on %3; gone on %4; unreachable %5.</source>
        <translation>已在 %2 个节点中的 %1 个上删除；%3 个留给新的持有者；%4 个已不存在；%5 个不可达。</translation>
    </message>
    <message>
        <source>No node holds the token shown: there is nothing to release.</source>
        <translation>没有节点持有所显示的令牌：无需释放。</translation>
    </message>
    <message>
        <source>Production profile. Release the lock “%1” held by %2 on %3 node(s)? Type the key name to confirm.</source>
        <translation>生产环境配置。要释放由 %2 在 %3 个节点上持有的锁“%1”吗？请输入键名以确认。</translation>
    </message>
    <message>
        <source>Release the lock “%1” held by %2 on %3 node(s)? Nodes where the token changed are left alone.</source>
        <translation>要释放由 %2 在 %3 个节点上持有的锁“%1”吗？令牌已变更的节点不会被改动。</translation>
    </message>
    <message>
        <source>The deletes ran, but their result could not be written to the audit log (the intent line is there): %1</source>
        <translation>删除已执行，但其结果无法写入审计日志（意图记录已写入）：%1</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>automatic: the lock&apos;s remaining validity plus drift (recommended)</source>
        <translation>自动：锁的剩余有效期加上时钟漂移（推荐）</translation>
    </message>
    <message>
        <source>fixed duration</source>
        <translation>固定时长</translation>
    </message>
    <message>
        <source>none: delete the key, free at once</source>
        <translation>无：删除该键，立即可用</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Lock-delay:</source>
        <translation>锁延迟：</translation>
    </message>
    <message>
        <source>Lock-delay</source>
        <translation>锁延迟</translation>
    </message>
    <message>
        <source>free at once</source>
        <translation>立即可用</translation>
    </message>
    <message>
        <source>not free by itself, or not known (nodes without expiry or unreachable)</source>
        <translation>不会自行变为可用，或无法得知（有节点没有过期时间或不可达）</translation>
    </message>
    <message>
        <source>free at %1 (in %2)</source>
        <translation>于 %1 可用（%2 后）</translation>
    </message>
    <message>
        <source>tombstone: the token still equals the one shown</source>
        <translation>墓碑：令牌仍与显示的一致</translation>
    </message>
    <message>
        <source>released: tombstone in place</source>
        <translation>已释放：墓碑已写入</translation>
    </message>
    <message>
        <source>skip: no expiry to measure</source>
        <translation>跳过：没有可度量的过期时间</translation>
    </message>
    <message>
        <source>Preview: the token would be replaced by a tombstone on %1 of %2 nodes; %3 unreachable.</source>
        <translation>预览：将在 %2 个节点中的 %1 个上用墓碑替换令牌；%3 个不可达。</translation>
    </message>
    <message>
        <source>The lock-delay lasts up to %1.</source>
        <translation>锁延迟最长持续 %1。</translation>
    </message>
    <message>
        <source>No expiry on %1 node(s): an automatic lock-delay has nothing to measure; choose a fixed duration, or none.</source>
        <translation>%1 个节点上没有过期时间：自动锁延迟无从度量；请选择固定时长，或不使用锁延迟。</translation>
    </message>
    <message>
        <source>Afterwards the lock is %1.</source>
        <translation>之后该锁%1。</translation>
    </message>
    <message>
        <source>Released with a lock-delay on %1 of %2 nodes; left to a new holder on %3; gone on %4; unreachable %5.</source>
        <translation>已在 %2 个节点中的 %1 个上以锁延迟释放；%3 个留给新的持有者；%4 个已不存在；%5 个不可达。</translation>
    </message>
    <message>
        <source>The lock is %1.</source>
        <translation>该锁%1。</translation>
    </message>
    <message>
        <source>The lock has no expiry: choose a fixed lock-delay, or none, to release it.</source>
        <translation>该锁没有过期时间：请选择固定锁延迟或不使用锁延迟来释放它。</translation>
    </message>
    <message>
        <source>On a node where the lock&apos;s remaining validity plus the clock drift is longer, the tombstone gets that instead: a fixed lock-delay never frees the lock before the old holder&apos;s validity is over. A key without expiry gets exactly this duration.</source>
        <translation>在锁的剩余有效期加上时钟漂移更长的节点上，墓碑改用该时长：固定锁延迟绝不会在旧持有者的有效期结束之前释放锁。没有过期时间的键恰好使用此时长。</translation>
    </message>
    <message>
        <source>%1 ms (raised)</source>
        <translation>%1 毫秒（已提高）</translation>
    </message>
    <message>
        <source>The fixed lock-delay is raised on %1 node(s) to cover the old holder&apos;s remaining validity plus drift.</source>
        <translation>固定锁延迟在 %1 个节点上被提高，以覆盖旧持有者的剩余有效期加上漂移。</translation>
    </message>
    <message>
        <source>Instead of deleting the key, the token is replaced by a tombstone that expires after the lock-delay: the old holder can no longer extend or release it, and nobody can acquire the lock before the old holder&apos;s validity is over, even if that holder is still running (a fixed duration is raised to that where needed; a lock without expiry stays blocked for the duration you choose).</source>
        <translation>不删除该键，而是用一个在锁延迟结束后过期的墓碑替换令牌：旧持有者无法再续期或释放它，在旧持有者的有效期结束之前，任何人都无法获取该锁，即使旧持有者仍在运行（固定时长会在需要时提高到该有效期；没有过期时间的锁在你选择的时长内保持被占用）。</translation>
    </message>
    <message>
        <source>This token holds a quorum of nodes with %1 of validity left: a running holder&apos;s lock. Releasing it takes the lock from that holder.</source>
        <translation>该令牌在法定人数的节点上持有锁，剩余有效期 %1：这是一个正在运行的持有者的锁。释放它会从该持有者手中夺走锁。</translation>
    </message>
</context>
<context>
    <name>redlock::ForceReleaseNode</name>
    <message>
        <source>not attempted</source>
        <translation>未尝试</translation>
    </message>
    <message>
        <source>delete: the token still matches</source>
        <translation>删除：令牌仍然一致</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>skipped: another token holds the key (untouched)</source>
        <translation>跳过：该键由其他令牌持有（未改动）</translation>
    </message>
    <message>
        <source>skipped: no such key</source>
        <translation>跳过：键不存在</translation>
    </message>
    <message>
        <source>skipped: not a string lock (untouched)</source>
        <translation>跳过：不是字符串类型的锁（未改动）</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <source>Redis error (untouched)</source>
        <translation>Redis 错误（未改动）</translation>
    </message>
    <message>
        <source>lock-delay: the token still matches, a tombstone replaces it</source>
        <translation>锁延迟：令牌仍匹配，将由墓碑替换</translation>
    </message>
    <message>
        <source>released with lock-delay (tombstone)</source>
        <translation>已以锁延迟释放（墓碑）</translation>
    </message>
    <message>
        <source>skipped: the lock has no expiry, an automatic lock-delay cannot be measured (untouched)</source>
        <translation>已跳过：该锁没有过期时间，无法度量自动锁延迟（未改动）</translation>
    </message>
</context>
<context>
    <name>redlock::HistoryFeature</name>
    <message>
        <source>Lock history</source>
        <translation>锁历史</translation>
    </message>
    <message>
        <source>Lock &amp;history</source>
        <translation>锁历史(&amp;H)</translation>
    </message>
    <message>
        <source>History of the selected &amp;lock</source>
        <translation>所选锁的历史(&amp;L)</translation>
    </message>
    <message>
        <source>Hi&amp;story</source>
        <translation>历史(&amp;S)</translation>
    </message>
    <message>
        <source>by the operator</source>
        <translation>由操作员执行</translation>
    </message>
    <message>
        <source>history recovered</source>
        <translation>历史已恢复</translation>
    </message>
    <message>
        <source>history not written</source>
        <translation>历史未写入</translation>
    </message>
    <message>
        <source>history warning</source>
        <translation>历史警告</translation>
    </message>
    <message>
        <source>History not written</source>
        <translation>历史未写入</translation>
    </message>
</context>
<context>
    <name>redlock::HistoryModel</name>
    <message>
        <source>Token: %1</source>
        <translation>令牌：%1</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>From</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>To</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Held for</source>
        <translation>持有时长</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>结束方式</translation>
    </message>
    <message>
        <source>Extended</source>
        <translation>续期次数</translation>
    </message>
    <message>
        <source>at least since %1</source>
        <translation>至少自 %1 起</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>Already held when first seen (watching started, or the lock&apos;s state was unknown until then): it was acquired earlier, when is not known.</source>
        <translation>首次看到时已被持有（监视刚开始，或此前锁的状态未知）：它在更早的时候被获取，具体时间未知。</translation>
    </message>
    <message>
        <source>Last seen held at this time; when watching resumed, another holder had it or nobody did: it ended after this, when is not known.</source>
        <translation>最后一次看到被持有是在此时；恢复监视时，它已由其他持有者持有或无人持有：它在此之后结束，具体时间未知。</translation>
    </message>
    <message>
        <source>Watching stopped while it was held: whether and when it ended is not known.</source>
        <translation>监视在其被持有期间停止：不知道它是否结束以及何时结束。</translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation>在 %1 与 %2 之间</translation>
    </message>
    <message>
        <source>Held at least until it was last seen; it ended after that, when is not known.</source>
        <translation>至少持有到最后一次看到它时；此后才结束，具体时间未知。</translation>
    </message>
    <message>
        <source>Nobody saw it end (no keyspace event: notify-keyspace-events is off, or the rescan found it gone first): still held when last seen at %1, gone when read again at %2.</source>
        <translation>没有人看到它结束（没有键空间事件：notify-keyspace-events 已关闭，或重新扫描先发现它已不存在）：最后一次于 %1 看到时仍被持有，于 %2 再次读取时已不存在。</translation>
    </message>
    <message>
        <source>%1 (pid %2)</source>
        <translation>%1（进程 %2）</translation>
    </message>
    <message>
        <source>not watched since %1</source>
        <translation>自 %1 起未监视</translation>
    </message>
    <message>
        <source>not watched %1–%2</source>
        <translation>%1–%2 未监视</translation>
    </message>
    <message>
        <source>nobody watched</source>
        <translation>无人监视</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>未监视</translation>
    </message>
    <message>
        <source>after %1 stopped</source>
        <translation>%1 停止之后</translation>
    </message>
    <message>
        <source>No writer watched the locks from %1 to %2 (the exporter, `redlock watch` or the console stopped, restarted or died): what happened then is not in the history. A tenure that ended in it ends &quot;while not watched&quot;, never as a release.</source>
        <translation>从 %1 到 %2 没有写入者在监视锁（exporter、`redlock watch` 或控制台已停止、重启或意外终止）：这期间发生的事不在历史中。在此期间结束的持有期记为“在未监视期间结束”，绝不记为释放。</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>Seen by</source>
        <translation>观察者</translation>
    </message>
</context>
<context>
    <name>redlock::HistoryPanel</name>
    <message>
        <source>every key; a glob such as orders:*</source>
        <translation>所有键；或通配符，如 orders:*</translation>
    </message>
    <message>
        <source>any holder; part of its name or token</source>
        <translation>任意持有者；其名称或令牌的一部分</translation>
    </message>
    <message>
        <source>Last 15 minutes</source>
        <translation>最近 15 分钟</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>From … to …</source>
        <translation>从 … 到 …</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Key:</source>
        <translation>键：</translation>
    </message>
    <message>
        <source>Holder:</source>
        <translation>持有者：</translation>
    </message>
    <message>
        <source>No lock history is kept (the console was started with --no-journal).</source>
        <translation>未保留锁历史（控制台以 --no-journal 启动）。</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message numerus="yes">
        <source>%n interval(s)</source>
        <translation>
            <numerusform>%n 个持有区间</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n event(s)</source>
        <translation>
            <numerusform>%n 个事件</numerusform>
        </translation>
    </message>
    <message>
        <source>more matched: narrow the filters</source>
        <translation>匹配结果更多：请缩小筛选范围</translation>
    </message>
    <message>
        <source>%1, the deployment&apos;s history: reading only, its own writers keep it</source>
        <translation>%1，部署的历史：只读，由其自身的写入者维护</translation>
    </message>
    <message numerus="yes">
        <source>%n span(s) nobody watched: what happened then is not known</source>
        <translation>
            <numerusform>%n 个时段无人监视：这期间发生了什么无从得知</numerusform>
        </translation>
    </message>
    <message>
        <source>The password was not remembered: %1</source>
        <translation>未能记住密码：%1</translation>
    </message>
</context>
<context>
    <name>redlock::HistoryTimeline</name>
    <message>
        <source>Select an interval to see the key&apos;s timeline</source>
        <translation>选择一个持有区间以查看该键的时间线</translation>
    </message>
    <message>
        <source>held, released or taken over</source>
        <translation>持有、释放或被接管</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>lost or force-released</source>
        <translation>丢失或被强制释放</translation>
    </message>
    <message>
        <source>No holder in this time range</source>
        <translation>此时间范围内没有持有者</translation>
    </message>
    <message numerus="yes">
        <source>%n more holder(s) not shown: enlarge the panel</source>
        <translation>
            <numerusform>另有 %n 个持有者未显示：请放大面板</numerusform>
        </translation>
    </message>
    <message>
        <source>end not seen</source>
        <translation>未看到结束</translation>
    </message>
    <message>
        <source>held before first seen</source>
        <translation>首次看到前已被持有</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>seen by %1</source>
        <translation>由 %1 观察</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>未监视</translation>
    </message>
</context>
<context>
    <name>redlock::HistoryWriter</name>
    <message>
        <source>%1 (pid %2)</source>
        <translation>%1（进程 %2）</translation>
    </message>
    <message>
        <source>%1 (pid %2 on %3)</source>
        <translation>%1（%3 上的进程 %2）</translation>
    </message>
</context>
<context>
    <name>redlock::HolderFormat</name>
    <message>
        <source>unrecognised</source>
        <translation>无法识别</translation>
    </message>
    <message>
        <source>Redlock Console core</source>
        <translation>Redlock Console 核心库</translation>
    </message>
    <message>
        <source>node-redlock (hex)</source>
        <translation>node-redlock（十六进制）</translation>
    </message>
    <message>
        <source>Redsync (base64)</source>
        <translation>Redsync（base64）</translation>
    </message>
    <message>
        <source>pottery / RedLock.net (uuid)</source>
        <translation>pottery / RedLock.net（uuid）</translation>
    </message>
    <message>
        <source>redlock-rb (uuid)</source>
        <translation>redlock-rb（uuid）</translation>
    </message>
    <message>
        <source>Redisson RLock</source>
        <translation>Redisson RLock</translation>
    </message>
    <message>
        <source>lock-delay tombstone</source>
        <translation>锁延迟墓碑</translation>
    </message>
</context>
<context>
    <name>redlock::HolderInfo</name>
    <message>
        <source>%1 pid %2</source>
        <translation>%1 进程 %2</translation>
    </message>
    <message>
        <source>%1 pid %2 (%3)</source>
        <translation>%1 进程 %2（%3）</translation>
    </message>
    <message>
        <source>%1 thread %2 ×%3</source>
        <translation>%1 线程 %2 ×%3</translation>
    </message>
    <message>
        <source>Redisson %1</source>
        <translation>Redisson %1</translation>
    </message>
    <message numerus="yes">
        <source>hash with %n field(s)</source>
        <translation>
            <numerusform>含 %n 个字段的哈希</numerusform>
        </translation>
    </message>
    <message>
        <source>released by %1 at %2</source>
        <translation>由 %1 于 %2 释放</translation>
    </message>
</context>
<context>
    <name>redlock::HumanUnits</name>
    <message>
        <source>—</source>
        <extracomment>A duration or latency that is not known (not measured, no TTL).</extracomment>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <extracomment>Milliseconds, e.g. &quot;850 ms&quot; (a duration) or &quot;0.25 ms&quot; (a round trip).</extracomment>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <extracomment>A duration in seconds with one decimal, e.g. &quot;1.5 s&quot;.</extracomment>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <extracomment>Whole minutes, e.g. &quot;5 min&quot;.</extracomment>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <extracomment>Minutes and seconds, e.g. &quot;3 min 20 s&quot;.</extracomment>
        <translation>%1 分钟 %2 秒</translation>
    </message>
    <message>
        <source>%1 h</source>
        <extracomment>Whole hours, e.g. &quot;2 h&quot;.</extracomment>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <extracomment>Hours and minutes, e.g. &quot;2 h 5 min&quot;.</extracomment>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 d</source>
        <extracomment>Whole days, e.g. &quot;3 d&quot;.</extracomment>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <extracomment>Days and hours, e.g. &quot;3 d 4 h&quot;.</extracomment>
        <translation>%1 天 %2 小时</translation>
    </message>
</context>
<context>
    <name>redlock::JournalImport</name>
    <message>
        <source>%1: no such file</source>
        <translation>%1：文件不存在</translation>
    </message>
    <message>
        <source>%1: not a file: a SQLite lock history journal is</source>
        <translation>%1：不是文件：SQLite 锁历史日志应是一个文件</translation>
    </message>
    <message>
        <source>the Qt SQLite driver is missing (Debian: libqt6sql6-sqlite)</source>
        <translation>缺少 Qt SQLite 驱动（Debian：libqt6sql6-sqlite）</translation>
    </message>
    <message>
        <source>%1: not a lock history journal (the file the console, `redlock watch --journal FILE` and `redlock exporter --journal FILE` write)</source>
        <translation>%1：不是锁历史日志（即控制台、`redlock watch --journal FILE` 和 `redlock exporter --journal FILE` 写入的文件）</translation>
    </message>
    <message>
        <source>%1: cannot open (%2)</source>
        <translation>%1：无法打开（%2）</translation>
    </message>
    <message>
        <source>%1: the journal has schema version %2, written by a newer Redlock Console; this one reads up to %3: import it with the newer one</source>
        <translation>%1：该日志的结构版本为 %2，由更新的 Redlock Console 写入；本版本最多读取到 %3：请用较新的版本导入</translation>
    </message>
    <message>
        <source>%1: not a postgresql://user@host[:port]/database URL: the import goes into a shared history in PostgreSQL</source>
        <translation>%1：不是 postgresql://user@host[:port]/database 形式的 URL：导入的目标是 PostgreSQL 中的共享历史</translation>
    </message>
    <message>
        <source>%1: cannot read (%2)</source>
        <translation>%1：无法读取（%2）</translation>
    </message>
    <message>
        <source>cannot import</source>
        <translation>无法导入</translation>
    </message>
    <message>
        <source> Nothing was imported: the shared history is as it was.</source>
        <translation> 未导入任何内容：共享历史保持原样。</translation>
    </message>
</context>
<context>
    <name>redlock::JournalStore</name>
    <message>
        <source>the file is not a SQLite database or is damaged (%1): move it away or choose another file</source>
        <translation>该文件不是 SQLite 数据库或已损坏（%1）：请将其移走或选择另一个文件</translation>
    </message>
    <message>
        <source>the file is locked by another process (waited %1 ms: %2)</source>
        <translation>该文件被另一个进程锁定（已等待 %1 毫秒：%2）</translation>
    </message>
    <message>
        <source>the disk is full or the journal reached its size limit (%1)</source>
        <translation>磁盘已满或日志已达到大小上限（%1）</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>%1: %2: %3</source>
        <translation>%1：%2：%3</translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation>无法写入</translation>
    </message>
    <message>
        <source>%1: no such journal (the console and `redlock watch --journal` write it)</source>
        <translation>%1：没有这个日志（由控制台和 `redlock watch --journal` 写入）</translation>
    </message>
    <message>
        <source>the Qt SQLite driver is missing (Debian: libqt6sql6-sqlite)</source>
        <translation>缺少 Qt SQLite 驱动（Debian：libqt6sql6-sqlite）</translation>
    </message>
    <message>
        <source>cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>cannot read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>%1: not a lock history journal</source>
        <translation>%1：不是锁历史日志</translation>
    </message>
    <message>
        <source>%1: cannot switch to WAL mode (the journal mode stays %2)</source>
        <translation>%1：无法切换到 WAL 模式（日志模式仍为 %2）</translation>
    </message>
    <message>
        <source>cannot create the tables</source>
        <translation>无法创建数据表</translation>
    </message>
    <message>
        <source>cannot prune</source>
        <translation>无法清理</translation>
    </message>
    <message>
        <source>%1: cannot create the writer lock %2: %3</source>
        <translation>%1：无法创建写入者锁 %2：%3</translation>
    </message>
    <message>
        <source>%1: cannot lock %2: %3</source>
        <translation>%1：无法锁定 %2：%3</translation>
    </message>
    <message>
        <source>process %1 (%2 on %3)</source>
        <translation>进程 %1（%2，位于 %3）</translation>
    </message>
    <message>
        <source>another process</source>
        <translation>另一个进程</translation>
    </message>
    <message>
        <source>%1: %2 writes this journal: one writer per journal, or the two would end each other&apos;s tenures; this one writes once that one stops</source>
        <translation>%1：%2 正在写入此日志：每个日志只能有一个写入者，否则两者会互相结束对方记录的持有期；待那个写入者停止后，本进程才会写入</translation>
    </message>
    <message>
        <source>%1: not a regular file (%2): the journal must be a file</source>
        <translation>%1：不是普通文件（%2）：日志必须是一个文件</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>是文件夹</translation>
    </message>
    <message>
        <source>a FIFO</source>
        <translation>是 FIFO</translation>
    </message>
    <message>
        <source>a device or socket</source>
        <translation>是设备或套接字</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: the Qt SQLite driver gives no SQLite handle</source>
        <translation>%1：Qt SQLite 驱动未提供 SQLite 句柄</translation>
    </message>
</context>
<context>
    <name>redlock::JournalWriterPassword</name>
    <message>
        <source>The password was not remembered: %1</source>
        <translation>未能记住密码：%1</translation>
    </message>
</context>
<context>
    <name>redlock::KeyReader</name>
    <message>
        <source>%1 refused: %2</source>
        <translation>%1 被拒绝：%2</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>not a lock format</source>
        <translation>不是锁格式</translation>
    </message>
    <message>
        <source>page scripts off</source>
        <translation>分页脚本已关闭</translation>
    </message>
    <message>
        <source>unexpected reply to the page script</source>
        <translation>分页脚本返回了意外的回复</translation>
    </message>
</context>
<context>
    <name>redlock::ListenAddress</name>
    <message>
        <source>&quot;%1&quot;: expected [IPv6 address]:port</source>
        <translation>“%1”：应为 [IPv6 地址]:端口</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: expected address:port, e.g. 127.0.0.1:9721</source>
        <translation>“%1”：应为 地址:端口，例如 127.0.0.1:9721</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: write an IPv6 address in brackets, e.g. [::1]:9721</source>
        <translation>“%1”：IPv6 地址须写在方括号内，例如 [::1]:9721</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: no address (127.0.0.1 serves this machine only, 0.0.0.0 every interface)</source>
        <translation>“%1”：缺少地址（127.0.0.1 仅本机可访问，0.0.0.0 为所有网络接口）</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: the port must be a number from 0 to 65535</source>
        <translation>“%1”：端口必须是 0 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: %2 is not an IP address (host names are not resolved)</source>
        <translation>“%1”：%2 不是 IP 地址（不解析主机名）</translation>
    </message>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>无法在 %1 上监听：%2</translation>
    </message>
</context>
<context>
    <name>redlock::LocalCluster</name>
    <message>
        <source>a cluster needs at least one node</source>
        <translation>集群至少需要一个节点</translation>
    </message>
    <message>
        <source>cannot create a temporary directory: %1</source>
        <translation>无法创建临时目录：%1</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>redis-server not found (install redis-server or set REDLOCK_REDIS_SERVER)</source>
        <translation>找不到 redis-server（请安装 redis-server 或设置 REDLOCK_REDIS_SERVER）</translation>
    </message>
    <message>
        <source>no free loopback port</source>
        <translation>没有空闲的回环端口</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>redis-server on port %1 did not become ready: %2</source>
        <translation>端口 %1 上的 redis-server 未能就绪：%2</translation>
    </message>
    <message>
        <source>no port could be bound after several attempts</source>
        <translation>多次尝试后仍无法绑定端口</translation>
    </message>
    <message>
        <source>no node %1</source>
        <translation>没有节点 %1</translation>
    </message>
</context>
<context>
    <name>redlock::LocalClusterRestartBackend</name>
    <message>
        <source>no such node in the local cluster</source>
        <translation>本地集群中没有该节点</translation>
    </message>
    <message>
        <source>the process could not be stopped</source>
        <translation>无法停止该进程</translation>
    </message>
</context>
<context>
    <name>redlock::LockDetailPanel</name>
    <message>
        <source>No lock selected</source>
        <translation>未选择锁</translation>
    </message>
    <message>
        <source>Select a row in the locks table to see it on every node.</source>
        <translation>在锁列表中选择一行，即可查看它在每个节点上的情况。</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Presence</source>
        <translation>存在状态</translation>
    </message>
    <message>
        <source>Token / holder</source>
        <translation>令牌 / 持有者</translation>
    </message>
    <message>
        <source>PTTL now</source>
        <translation>当前 PTTL</translation>
    </message>
    <message>
        <source>Last read</source>
        <translation>最近读取</translation>
    </message>
    <message>
        <source>Read latency</source>
        <translation>读取延迟</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Recent holders of this key (live events)</source>
        <translation>该键最近的持有者（实时事件）</translation>
    </message>
    <message>
        <source>This key is gone from every reachable node.</source>
        <translation>该键已从所有可达节点上消失。</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>%1 — holder: %2 (%3). Rests on nodes %4; quorum %5 of %6.</source>
        <translation>%1 — 持有者：%2（%3）。依据节点 %4；法定人数为 %6 个中的 %5 个。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>PTTL read at %1</source>
        <translation>PTTL 读取于 %1</translation>
    </message>
    <message>
        <source>no expiry: stuck</source>
        <translation>永不过期：卡住</translation>
    </message>
    <message>
        <source>majority</source>
        <translation>多数派</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他令牌</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <source>no permission</source>
        <translation>无权限</translation>
    </message>
    <message>
        <source>not a lock</source>
        <translation>不是锁</translation>
    </message>
    <message>
        <source>tombstone (lock-delay)</source>
        <translation>墓碑（锁延迟）</translation>
    </message>
    <message>
        <source> (not counted)</source>
        <translation>（不计入）</translation>
    </message>
    <message>
        <source>Quarantined for a delayed restart: not counted by the verdict.</source>
        <translation>因延迟重启而被隔离：判定不计入该节点。</translation>
    </message>
    <message>
        <source>other, no expiry (leftover)</source>
        <translation>其他值，永不过期（残留）</translation>
    </message>
</context>
<context>
    <name>redlock::LockEvent</name>
    <message>
        <source>acquired</source>
        <translation>已获取</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>token changed</source>
        <translation>令牌已变更</translation>
    </message>
    <message>
        <source>contested</source>
        <translation>争用中</translation>
    </message>
    <message>
        <source>lost on node restart</source>
        <translation>因节点重启而丢失</translation>
    </message>
    <message>
        <source>extended</source>
        <translation>已续期</translation>
    </message>
    <message>
        <source>seen held</source>
        <translation>发现已被持有</translation>
    </message>
    <message>
        <source>released or expired</source>
        <translation>已释放或已过期</translation>
    </message>
    <message>
        <source>evicted</source>
        <translation>已被驱逐</translation>
    </message>
</context>
<context>
    <name>redlock::LockInspector</name>
    <message>
        <source>unexpected SCAN reply</source>
        <translation>SCAN 返回了意外的回复</translation>
    </message>
    <message>
        <source>Pub/Sub connection lost: %1</source>
        <translation>Pub/Sub 连接断开：%1</translation>
    </message>
    <message>
        <source>reconnected: checking whether the node restarted</source>
        <translation>已重新连接：正在检查该节点是否已重启</translation>
    </message>
    <message>
        <source>PSUBSCRIBE refused: %1</source>
        <translation>PSUBSCRIBE 被拒绝：%1</translation>
    </message>
    <message>
        <source>notify-keyspace-events is off</source>
        <translation>notify-keyspace-events 已关闭</translation>
    </message>
    <message>
        <source>notify-keyspace-events &quot;%1&quot; lacks some of &quot;%2&quot;</source>
        <translation>notify-keyspace-events 为“%1”，缺少“%2”中的部分标志</translation>
    </message>
    <message>
        <source>notify-keyspace-events unknown (CONFIG GET: %1)</source>
        <translation>notify-keyspace-events 未知（CONFIG GET：%1）</translation>
    </message>
    <message>
        <source>unexpected reply</source>
        <translation>意外的回复</translation>
    </message>
    <message>
        <source>keyspace events not used</source>
        <translation>未使用键空间事件</translation>
    </message>
</context>
<context>
    <name>redlock::LockJournal</name>
    <message>
        <source>force-released</source>
        <translation>已强制释放</translation>
    </message>
    <message>
        <source>still held</source>
        <translation>仍被持有</translation>
    </message>
    <message>
        <source>taken over</source>
        <translation>被接管</translation>
    </message>
    <message>
        <source>observation ended</source>
        <translation>观察已结束</translation>
    </message>
    <message numerus="yes">
        <source>Lock history is not being written: %1. Monitoring goes on; %n event(s) wait in memory and are written when the journal can take them again.</source>
        <translation>
            <numerusform>锁历史未能写入：%1。监控照常进行；%n 个事件在内存中等待，日志恢复可写后再写入。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n event(s) were dropped (the oldest, observed from %1 to %2): the memory holds at most %3.</source>
        <translation>
            <numerusform>已丢弃 %n 个事件（最旧的，观察于 %1 至 %2）：内存中最多保留 %3 个。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Lock history is written again to %1: %n event(s) written late</source>
        <translation>
            <numerusform>锁历史已重新写入 %1：%n 个事件延迟写入</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n dropped while it failed.</source>
        <translation>
            <numerusform>，失败期间丢弃了 %n 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>, none lost.</source>
        <translation>，没有丢失。</translation>
    </message>
    <message>
        <source>ended while not watched</source>
        <translation>在未监视期间结束</translation>
    </message>
    <message>
        <source>force-released on a minority (still held)</source>
        <translation>仅在少数节点上被强制释放（仍被持有）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is out of range: at most %2 years back</source>
        <translation>&quot;%1&quot; 超出范围：最多只能回溯 %2 年</translation>
    </message>
    <message>
        <source>%1 still takes %2 MiB after pruning, beyond its size target of %3 MiB: the locks held now take that much, and their tenures are kept until they end</source>
        <translation>%1 在清理后仍占用 %2 MiB，超出其 %3 MiB 的大小目标：当前持有的锁就占用了这么多，它们的持有期记录会一直保留到结束</translation>
    </message>
</context>
<context>
    <name>redlock::LockKeeper</name>
    <message>
        <source>less than the safety margin (%1 ms) of validity left and no extension has succeeded</source>
        <translation>剩余有效期已不足安全余量（%1 毫秒），且没有任何续期成功</translation>
    </message>
</context>
<context>
    <name>redlock::LockVerdict</name>
    <message>
        <source>held</source>
        <translation>已持有</translation>
    </message>
    <message>
        <source>expiring</source>
        <translation>即将过期</translation>
    </message>
    <message>
        <source>contested</source>
        <translation>争用中</translation>
    </message>
    <message>
        <source>minority leftover</source>
        <translation>少数派残留</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>stuck (no expiry)</source>
        <translation>卡住（永不过期）</translation>
    </message>
    <message>
        <source>released by operator</source>
        <translation>已由操作员释放</translation>
    </message>
</context>
<context>
    <name>redlock::LocksModel</name>
    <message numerus="yes">
        <source>%n tokens</source>
        <translation>
            <numerusform>%n 个令牌</numerusform>
        </translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>not a lock</source>
        <translation>不是锁</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>other %1</source>
        <translation>其他令牌 %1</translation>
    </message>
    <message>
        <source>%1 %2/%3</source>
        <translation>%1 %2/%3</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1
format: %2
token: %3</source>
        <translation>%1
格式：%2
令牌：%3</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>%1; rests on nodes %2 (quorum %3 of %4)</source>
        <translation>%1；依据节点 %2（法定人数为 %4 个中的 %3 个）</translation>
    </message>
    <message>
        <source>Observed validity: the quorum-th longest remaining TTL among the holders, minus clock drift</source>
        <translation>观测有效期：持有节点中第“法定人数”长的剩余 TTL，减去时钟漂移</translation>
    </message>
    <message>
        <source>Node #%1: %2</source>
        <translation>节点 #%1：%2</translation>
    </message>
    <message>
        <source>token: %1</source>
        <translation>令牌：%1</translation>
    </message>
    <message>
        <source>Lock key</source>
        <translation>锁键</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>Validity</source>
        <translation>有效期</translation>
    </message>
    <message>
        <source>TTL #%1</source>
        <translation>TTL #%1</translation>
    </message>
    <message>
        <source>no permission</source>
        <translation>无权限</translation>
    </message>
    <message>
        <source>Remaining TTL on node #%1. Solid bar: majority token; hatched with %2: another token; %3 absent; %4 unreachable</source>
        <translation>节点 #%1 上的剩余 TTL。实心条：多数派令牌；带 %2 的斜线条：其他令牌；%3 不存在；%4 不可达</translation>
    </message>
    <message>
        <source>lock-delay %1</source>
        <translation>锁延迟 %1</translation>
    </message>
    <message>
        <source>Released by an operator with a lock-delay; when it is free is not known (nodes unreachable or without expiry).</source>
        <translation>已由操作员以锁延迟释放；无法得知何时可用（有节点不可达或没有过期时间）。</translation>
    </message>
    <message>
        <source>Released by an operator with a lock-delay: free at %1 (in %2).</source>
        <translation>已由操作员以锁延迟释放：于 %1 可用（%2 后）。</translation>
    </message>
    <message>
        <source>Not counted: node(s) %1 quarantined for a delayed restart; the verdict treats them as unreachable, whatever they hold.</source>
        <translation>不计入：节点 %1 因延迟重启而被隔离；无论其持有什么，判定都将其视为不可达。</translation>
    </message>
    <message>
        <source>free in %1</source>
        <translation>%1 后可用</translation>
    </message>
    <message>
        <source>%1: validity ended, reading again</source>
        <translation>%1：有效期已结束，正在重新读取</translation>
    </message>
    <message>
        <source>%1 · no expiry on %2</source>
        <translation>%1 · %2 上永不过期</translation>
    </message>
    <message>
        <source>No expiry on node(s) %1: a value that never goes away by itself (%2) sits beside the verdict&apos;s holder. Force release on this lock replaces that value, not the holder&apos;s token.</source>
        <translation>节点 %1 上永不过期：一个永远不会自行消失的值（%2）与判定的持有者并存。对该锁强制释放会替换该值，而不是持有者的令牌。</translation>
    </message>
    <message>
        <source>The observed validity of its quorum ran out after the last read: extended unseen, or expired. The key is being read again.</source>
        <translation>其法定人数节点上的观测有效期在上次读取后已耗尽：可能在未被看到时已续期，也可能已过期。正在重新读取该键。</translation>
    </message>
</context>
<context>
    <name>redlock::MainWindow</name>
    <message>
        <source>Redlock Console</source>
        <translation>Redlock 控制台</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <source>Choose, edit and check connection profiles</source>
        <translation>选择、编辑并检查连接配置</translation>
    </message>
    <message>
        <source>&amp;Refresh now</source>
        <translation>立即刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Scan every node for locks now instead of at the next interval</source>
        <translation>立即扫描所有节点上的锁，而不是等到下一个周期</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Cluster</source>
        <translation>集群(&amp;L)</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Filter locks by key, holder or verdict</source>
        <translation>按键、持有者或判定过滤锁</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Event log</source>
        <translation>事件日志</translation>
    </message>
    <message>
        <source>node restarted</source>
        <translation>节点已重启</translation>
    </message>
    <message>
        <source>node #%1 %2 restarted (downtime %3)</source>
        <translation>节点 #%1 %2 已重启（停机时间 %3）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Profile: %1</source>
        <translation>连接配置：%1</translation>
    </message>
    <message>
        <source> — read-only</source>
        <translation> — 只读</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s)</source>
        <translation>
            <numerusform>%n 个锁</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 shown</source>
        <translation>显示 %2 个中的 %1 个</translation>
    </message>
    <message>
        <source>Scanned %1 keys in %2 ms at %3</source>
        <translation>%3 扫描了 %1 个键，耗时 %2 毫秒</translation>
    </message>
    <message numerus="yes">
        <source> · %n non-lock key(s) skipped</source>
        <translation>
            <numerusform> · 跳过了 %n 个非锁键</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n node error(s)</source>
        <translation>
            <numerusform> · %n 个节点错误</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Filter locks</source>
        <translation>筛选锁(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Redlock Console</source>
        <translation>关于 Redlock 控制台(&amp;A)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Redlock Console %1&lt;/h3&gt;&lt;p&gt;Monitoring and admin console for Redlock distributed locks over N independent Redis masters.&lt;/p&gt;&lt;p&gt;Built with Qt %2, running on Qt %3.&lt;/p&gt;&lt;p&gt;The source code is under the MIT licence. The console links Qt Charts, which Debian ships under the GNU GPL version 3, so the console in binary form is distributed under the terms of the GPL-3 as well.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Redlock 控制台 %1&lt;/h3&gt;&lt;p&gt;基于 N 个相互独立的 Redis 主节点的 Redlock 分布式锁监控与管理控制台。&lt;/p&gt;&lt;p&gt;使用 Qt %2 构建，运行于 Qt %3。&lt;/p&gt;&lt;p&gt;源代码采用 MIT 许可证。控制台链接了 Qt Charts，Debian 以 GNU GPL 第 3 版发布该库，因此控制台的二进制形式同样按 GPL-3 的条款分发。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About Redlock Console</source>
        <translation>关于 Redlock 控制台</translation>
    </message>
    <message>
        <source>held %1 · expiring %2 · contested %3 · minority leftover %4 · unknown %5 · stuck %6</source>
        <translation>已持有 %1 · 即将过期 %2 · 争用中 %3 · 少数派残留 %4 · 未知 %5 · 卡住 %6</translation>
    </message>
    <message>
        <source>Quorum: yes — %1 of %2 nodes up (quorum %3)</source>
        <translation>法定人数：满足 — %2 个节点中 %1 个在线（法定人数 %3）</translation>
    </message>
    <message>
        <source>Quorum: NO — %1 of %2 nodes up (quorum %3)</source>
        <translation>法定人数：不满足 — %2 个节点中 %1 个在线（法定人数 %3）</translation>
    </message>
    <message>
        <source> · released by operator %1</source>
        <translation> · 已由操作员释放 %1</translation>
    </message>
    <message numerus="yes">
        <source> · %n key(s) not in a lock format passed over</source>
        <translation>
            <numerusform> · 跳过了 %n 个非锁格式的键</numerusform>
        </translation>
    </message>
    <message>
        <source>Under the pattern * only values in a lock format the console recognises (its own tokens, node-redlock, Redsync, uuids, Redisson) count as locks; keys with other values are passed over. A profile pattern other than * names the lock keys: then every value with a TTL under it counts.</source>
        <translation>在模式 * 下，只有控制台能识别的锁格式的值（其自身的令牌、node-redlock、Redsync、uuid、Redisson）才算作锁；值为其他内容的键会被跳过。连接配置中不是 * 的模式即指定了锁键：此时该模式下每个带 TTL 的值都算作锁。</translation>
    </message>
</context>
<context>
    <name>redlock::NodeEndpoint</name>
    <message>
        <source>empty node address</source>
        <translation>节点地址为空</translation>
    </message>
    <message>
        <source>bad database index in &quot;%1&quot;</source>
        <translation>“%1”中的数据库编号无效</translation>
    </message>
    <message>
        <source>unix socket path must be absolute: &quot;%1&quot;</source>
        <translation>unix 套接字路径必须是绝对路径：“%1”</translation>
    </message>
    <message>
        <source>bad node URL &quot;%1&quot;</source>
        <translation>节点 URL“%1”无效</translation>
    </message>
    <message>
        <source>bad port in &quot;%1&quot;</source>
        <translation>“%1”中的端口无效</translation>
    </message>
    <message>
        <source>bad database index &quot;%1&quot; in &quot;%2&quot;</source>
        <translation>“%2”中的数据库编号“%1”无效</translation>
    </message>
    <message>
        <source>missing &apos;]&apos; in &quot;%1&quot;</source>
        <translation>“%1”中缺少“]”</translation>
    </message>
    <message>
        <source>unexpected text after &apos;]&apos; in &quot;%1&quot;</source>
        <translation>“%1”中“]”之后有多余的文本</translation>
    </message>
    <message>
        <source>IPv6 addresses need brackets: &quot;[%1]:port&quot;</source>
        <translation>IPv6 地址需要加方括号：“[%1]:端口”</translation>
    </message>
    <message>
        <source>bad host &quot;%1&quot;</source>
        <translation>主机“%1”无效</translation>
    </message>
    <message>
        <source>node &quot;%1&quot;: %2</source>
        <translation>节点“%1”：%2</translation>
    </message>
    <message>
        <source>no nodes given</source>
        <translation>未指定节点</translation>
    </message>
    <message>
        <source>nodes %1 and %2 are the same server (%3 and %4): its vote would count twice towards the quorum</source>
        <translation>节点 %1 和 %2 是同一台服务器（%3 和 %4）：它的票会在法定人数中被计算两次</translation>
    </message>
    <message>
        <source>bad port &quot;%1&quot;: expected a number from 1 to 65535</source>
        <translation>端口“%1”无效：应为 1 到 65535 之间的数字</translation>
    </message>
</context>
<context>
    <name>redlock::NodeHealth</name>
    <message>
        <source>connecting</source>
        <translation>连接中</translation>
    </message>
    <message>
        <source>up</source>
        <translation>在线</translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>no permission</source>
        <translation>无权限</translation>
    </message>
    <message>
        <source>down</source>
        <translation>离线</translation>
    </message>
    <message>
        <source>not answering</source>
        <translation>无应答</translation>
    </message>
</context>
<context>
    <name>redlock::NodeOutcome</name>
    <message>
        <source>not attempted</source>
        <translation>未尝试</translation>
    </message>
    <message>
        <source>no answer before the decision</source>
        <translation>决定之前未收到回复</translation>
    </message>
    <message>
        <source>acquired</source>
        <translation>已加锁</translation>
    </message>
    <message>
        <source>held by another token</source>
        <translation>被其他令牌持有</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已解锁</translation>
    </message>
    <message>
        <source>extended</source>
        <translation>已续期</translation>
    </message>
    <message>
        <source>not held: nothing changed</source>
        <translation>未持有：没有任何改动</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>connection error</source>
        <translation>连接错误</translation>
    </message>
    <message>
        <source>Redis error</source>
        <translation>Redis 错误</translation>
    </message>
</context>
<context>
    <name>redlock::NodeRestartScheduler</name>
    <message>
        <source>read-only mode: node restart refused</source>
        <translation>只读模式：拒绝重启节点</translation>
    </message>
    <message>
        <source>no node %1</source>
        <translation>没有节点 %1</translation>
    </message>
    <message>
        <source>node %1 already has a restart pending</source>
        <translation>节点 %1 已有一个待执行的重启</translation>
    </message>
    <message>
        <source>a delay of %1 ms is shorter than the %2 ms the node must stay out (the largest lock TTL plus drift): locks it voted for could still be live when it votes again</source>
        <translation>%1 毫秒的延迟短于该节点必须离线的 %2 毫秒（最大锁 TTL 加上时钟漂移）：它再次投票时，它曾投票支持的锁可能仍然有效</translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE needs an explicit confirmation: the node loses its data and must be brought back by something else</source>
        <translation>SHUTDOWN NOSAVE 需要明确确认：该节点会丢失数据，且必须由其他方式重新启动</translation>
    </message>
    <message>
        <source>both a stop and a start program are needed</source>
        <translation>需要同时提供停止程序和启动程序</translation>
    </message>
    <message>
        <source>abandoned before the stop step</source>
        <translation>在停止步骤之前已放弃</translation>
    </message>
    <message>
        <source>node %1 is not a node of the local cluster</source>
        <translation>节点 %1 不是本地集群的节点</translation>
    </message>
    <message>
        <source>unknown restart method</source>
        <translation>未知的重启方式</translation>
    </message>
    <message>
        <source> (new run_id %1)</source>
        <translation>（新的 run_id %1）</translation>
    </message>
    <message>
        <source>read-only mode: node %1 is due but was not started; start it yourself or leave read-only mode</source>
        <translation>只读模式：节点 %1 已到期但未启动；请自行启动，或退出只读模式</translation>
    </message>
    <message>
        <source>node %1 is being stopped or started right now</source>
        <translation>节点 %1 正在停止或启动</translation>
    </message>
    <message>
        <source>node %1 has no pending restart</source>
        <translation>节点 %1 没有待执行的重启</translation>
    </message>
    <message>
        <source>node %1 still answers and its run_id cannot be read: the delay counts from when it stops answering</source>
        <translation>节点 %1 仍在应答且无法读取其 run_id：延迟从它停止应答时开始计算</translation>
    </message>
    <message>
        <source>node %1 still answers as the same instance (run_id %2): it has not gone down, and the delay counts from when it stops answering</source>
        <translation>节点 %1 仍以同一实例应答（run_id %2）：它尚未停止，延迟从它停止应答时开始计算</translation>
    </message>
    <message>
        <source>node %1 answers again %2 ms before the delay has passed%3: clients count it again and it may vote for locks it lost. The console cannot keep it out; it only flags it</source>
        <translation>节点 %1 在延迟结束前 %2 毫秒再次应答%3：客户端会重新计入它，它可能为自己已丢失的锁投票。控制台无法阻止它加入，只能标记它</translation>
    </message>
    <message>
        <source>the start step failed</source>
        <translation>启动步骤失败</translation>
    </message>
    <message numerus="yes">
        <source>node %1 could not be started (%n attempt(s)); last error: %2</source>
        <translation>
            <numerusform>节点 %1 无法启动（尝试了 %n 次）；最后的错误：%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>node %1 is back (new run_id %2), started by something else after %n failed start(s)</source>
        <translation>
            <numerusform>节点 %1 已恢复（新的 run_id %2），在 %n 次启动失败后由其他方式启动</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>node %1 is back (a new instance answers; its run_id cannot be read yet, e.g. while it loads its data) after %n failed start(s)</source>
        <translation>
            <numerusform>节点 %1 已恢复（新实例已应答；其 run_id 暂时无法读取，例如仍在加载数据），此前启动失败 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>the audit log could not be written, so node %1 was not stopped: %2</source>
        <translation>审计日志无法写入，因此未停止节点 %1：%2</translation>
    </message>
    <message>
        <source>the pending restarts could not be saved, so node %1 was not stopped (a console restart would forget that it is kept down): %2</source>
        <translation>待执行的重启无法保存，因此未停止节点 %1（控制台重启后会忘记该节点正被保持停机）：%2</translation>
    </message>
    <message>
        <source>the restart of node %1 %2 was saved just before its stop step, and the node still answers as the same instance (run_id %3): the console went away before stopping it. The restart is dropped and the node counts again; schedule it again if it is still needed</source>
        <translation>节点 %1 %2 的重启在其停止步骤之前刚刚保存，而该节点仍以同一实例应答（run_id %3）：控制台在停止它之前就已退出。该重启已被丢弃，该节点重新计入；如仍需要，请重新安排重启</translation>
    </message>
    <message>
        <source>not started, because the audit log could not be written: %1</source>
        <translation>未启动，因为审计日志无法写入：%1</translation>
    </message>
    <message>
        <source>the audit log could not be written, so the restart of node %1 is still tracked (the node stays out of the count): %2</source>
        <translation>审计日志无法写入，因此仍在跟踪节点 %1 的重启（该节点仍不计入）：%2</translation>
    </message>
    <message>
        <source>the pending restarts could not be saved: %1. A console restarted now may not know which nodes it keeps down</source>
        <translation>待执行的重启无法保存：%1。现在重启控制台，它可能不知道自己正让哪些节点保持停机</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>cannot sync the folder %1 to disk: %2</source>
        <translation>无法将文件夹 %1 同步到磁盘：%2</translation>
    </message>
    <message>
        <source>the pending restarts are saved again in %1</source>
        <translation>待执行的重启已重新保存到 %1</translation>
    </message>
    <message>
        <source>%1 is damaged and could not be renamed to %2, so it is not written over and no restart can be scheduled: move it away, then reconnect</source>
        <translation>%1 已损坏且无法重命名为 %2，因此不会覆盖它，也无法安排任何重启：请将其移走，然后重新连接</translation>
    </message>
    <message>
        <source>named in a damaged pending-restart file (%1): how and when it was stopped is not known, so the console keeps it out and does not start it; check the node, then abandon its restart</source>
        <translation>列在已损坏的待执行重启文件（%1）中：不清楚它是如何以及何时被停止的，因此控制台将其隔离且不会启动它；请检查该节点，然后放弃其重启</translation>
    </message>
    <message>
        <source>The pending-restart file %1 is damaged: %2.</source>
        <translation>待执行重启文件 %1 已损坏：%2。</translation>
    </message>
    <message>
        <source>It was kept as %1, and a new one is started.</source>
        <translation>原文件已保留为 %1，并已新建一个文件。</translation>
    </message>
    <message>
        <source>It names no node of this profile.</source>
        <translation>其中没有此连接配置中的节点。</translation>
    </message>
    <message>
        <source>Node(s) named in it are kept out of the count and not started by the console: %1. Check each one (start it if it is down), then abandon its restart.</source>
        <translation>其中列出的节点不计入，控制台也不会启动它们：%1。请逐一检查（若已停机则将其启动），然后放弃其重启。</translation>
    </message>
    <message>
        <source>%1 cannot be read (%2), so it is not written over and no restart can be scheduled: fix its permissions, then reconnect</source>
        <translation>无法读取 %1（%2），因此不会覆盖它，也无法安排任何重启：请修正其权限，然后重新连接</translation>
    </message>
    <message>
        <source>it is not a JSON object (%1)</source>
        <translation>它不是 JSON 对象（%1）</translation>
    </message>
    <message>
        <source>its version (%1) is not one this console reads (1 or %2)</source>
        <translation>其版本（%1）不是本控制台能读取的版本（1 或 %2）</translation>
    </message>
    <message>
        <source>it has no list of restarts</source>
        <translation>其中没有重启列表</translation>
    </message>
    <message>
        <source>a pending restart of %1 stays in %2 for the profile it belongs to: not a node of this profile</source>
        <translation>%1 的待执行重启保留在 %2 中，留给它所属的连接配置：它不是此连接配置中的节点</translation>
    </message>
    <message>
        <source>entry %1</source>
        <translation>条目 %1</translation>
    </message>
    <message>
        <source>node %1 %2 is still kept out: %3</source>
        <translation>节点 %1 %2 仍被隔离：%3</translation>
    </message>
    <message numerus="yes">
        <source>%n of its entries cannot be read (%1)</source>
        <translation>
            <numerusform>其中 %n 个条目无法读取（%1）</numerusform>
        </translation>
    </message>
    <message>
        <source>node %1: the audit log could not be written (%2 not recorded): %3</source>
        <translation>节点 %1：审计日志无法写入（未记录%2）：%3</translation>
    </message>
    <message>
        <source>node %1 is the same Redis server as node %2 (same run_id), which already has a restart pending</source>
        <translation>节点 %1 与节点 %2 是同一个 Redis 服务器（run_id 相同），后者已有待执行的重启</translation>
    </message>
</context>
<context>
    <name>redlock::NodeSession</name>
    <message>
        <source>read-only mode: enabling keyspace events refused</source>
        <translation>只读模式：已拒绝启用键空间事件</translation>
    </message>
    <message>
        <source>unexpected reply</source>
        <translation>意外的回复</translation>
    </message>
    <message>
        <source>notify-keyspace-events set to &quot;%1&quot;</source>
        <translation>notify-keyspace-events 已设置为“%1”</translation>
    </message>
    <message>
        <source>no reply to PING within %1 ms</source>
        <translation>%1 毫秒内未收到 PING 的回复</translation>
    </message>
</context>
<context>
    <name>redlock::NodesModel</name>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source> (degraded)</source>
        <translation>（功能受限）</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message numerus="yes">
        <source>master, %n replica(s)</source>
        <translation>
            <numerusform>主节点，%n 个副本</numerusform>
        </translation>
    </message>
    <message>
        <source>master</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>replica</source>
        <translation>副本</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1, restarted at %2</source>
        <translation>%1，于 %2 重启</translation>
    </message>
    <message>
        <source>Refused by the node: %1</source>
        <translation>被节点拒绝：%1</translation>
    </message>
    <message>
        <source>Redis %1, run_id %2
maxmemory-policy %3, AOF %4, appendfsync %5</source>
        <translation>Redis %1，run_id %2
maxmemory-policy %3，AOF %4，appendfsync %5</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Restart seen at %1; estimated downtime %2</source>
        <translation>于 %1 检测到重启；估计停机时间 %2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>Clock offset</source>
        <translation>时钟偏移</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>运行时间</translation>
    </message>
    <message>
        <source>Safety audit</source>
        <translation>安全审计</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 cmd/s</source>
        <translation>%1 条命令/秒</translation>
    </message>
    <message>
        <source> · rescan only</source>
        <translation> · 仅靠重新扫描</translation>
    </message>
    <message>
        <source>This console sends this node %1 commands/s.</source>
        <translation>本控制台向此节点每秒发送 %1 条命令。</translation>
    </message>
    <message>
        <source>Lock view: %1/s (changes %2/s, rescan %3/s within a budget of %4/s).</source>
        <translation>锁视图：%1/秒（变更重读 %2/秒，重新扫描 %3/秒，预算 %4/秒）。</translation>
    </message>
    <message>
        <source>Lock view: %1/s (changes %2/s, rescan %3/s, no budget: full passes at full speed).</source>
        <translation>锁视图：%1/秒（变更重读 %2/秒，重新扫描 %3/秒，无预算：全速完整扫描）。</translation>
    </message>
    <message>
        <source>Changes show at once: keyspace events.</source>
        <translation>变更立即显示：键空间事件。</translation>
    </message>
    <message>
        <source>No keyspace events (%1): changes show only when the rescan reaches them.</source>
        <translation>无键空间事件（%1）：变更只有在重新扫描扫到时才显示。</translation>
    </message>
    <message>
        <source>A full rescan takes about %1.</source>
        <translation>一次完整的重新扫描约需 %1。</translation>
    </message>
    <message>
        <source>Rescan under way: %1%.</source>
        <translation>重新扫描进行中：%1%。</translation>
    </message>
    <message>
        <source>Node health (PING, TIME, INFO): %1/s.</source>
        <translation>节点健康检查（PING、TIME、INFO）：%1/秒。</translation>
    </message>
    <message>
        <source>Console load</source>
        <translation>控制台负载</translation>
    </message>
    <message>
        <source>no findings</source>
        <translation>无问题</translation>
    </message>
    <message>
        <source>%1 ms ± %2</source>
        <translation>%1 毫秒 ± %2</translation>
    </message>
    <message>
        <source>via %1 → %2</source>
        <translation>经由 %1 → %2</translation>
    </message>
    <message>
        <source>#%1 %2 (via %3)</source>
        <translation>#%1 %2（经由 %3）</translation>
    </message>
    <message>
        <source>unreachable: SSH tunnel not up</source>
        <translation>不可达：SSH 隧道未建立</translation>
    </message>
    <message>
        <source> · per key</source>
        <translation> · 逐键读取</translation>
    </message>
    <message>
        <source>Lock keys are read with one read-only script per page of keys (EVALSHA_RO).</source>
        <translation>锁键按页读取，每页键只用一次只读脚本（EVALSHA_RO）。</translation>
    </message>
    <message>
        <source>Lock keys are read per key (a few commands each): %1</source>
        <translation>锁键逐个读取（每个键几条命令）：%1</translation>
    </message>
</context>
<context>
    <name>redlock::NodesPanel</name>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source> commands/s per node</source>
        <translation> 条命令/秒（每节点）</translation>
    </message>
    <message>
        <source>How many commands per second the lock view&apos;s background rescan may send each node. Live changes come from keyspace events; the rescan catches what they miss, and is the only source on nodes without them. 0: no limit (a full pass at full speed).</source>
        <translation>锁视图的后台重新扫描每秒最多可向每个节点发送多少条命令。实时变更来自键空间事件；重新扫描补上事件遗漏的部分，并且是没有键空间事件的节点的唯一来源。0：不限（全速完整扫描）。</translation>
    </message>
    <message>
        <source>&amp;Rescan budget:</source>
        <translation>重新扫描预算(&amp;R)：</translation>
    </message>
    <message>
        <source>Safety audit: no findings</source>
        <translation>安全审计：未发现问题</translation>
    </message>
    <message>
        <source>%1 [%2]: %3</source>
        <translation>%1 [%2]：%3</translation>
    </message>
</context>
<context>
    <name>redlock::OperatorFeature</name>
    <message>
        <source>&amp;Force release…</source>
        <translation>强制释放(&amp;F)…</translation>
    </message>
    <message>
        <source>Delete the selected lock on the nodes where it still holds the token shown</source>
        <translation>在仍持有所显示令牌的节点上删除所选的锁</translation>
    </message>
    <message>
        <source>Restart node with &amp;delay…</source>
        <translation>延迟重启节点(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Abandon delayed restart</source>
        <translation>放弃延迟重启(&amp;A)</translation>
    </message>
    <message>
        <source>Stop tracking the selected node&apos;s restart; it is not started again</source>
        <translation>不再跟踪所选节点的重启；它不会被重新启动</translation>
    </message>
    <message>
        <source>A&amp;udit log…</source>
        <translation>审计日志(&amp;U)…</translation>
    </message>
    <message>
        <source>Test bench</source>
        <translation>测试台</translation>
    </message>
    <message>
        <source>&amp;Test bench</source>
        <translation>测试台(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Operations</source>
        <translation>操作(&amp;O)</translation>
    </message>
    <message>
        <source>Force release…</source>
        <translation>强制释放…</translation>
    </message>
    <message>
        <source>delayed restart</source>
        <translation>延迟重启</translation>
    </message>
    <message>
        <source>node #%1 %2: %3</source>
        <translation>节点 #%1 %2：%3</translation>
    </message>
    <message>
        <source>node back early</source>
        <translation>节点提前恢复</translation>
    </message>
    <message>
        <source>Read-only mode: destructive actions are disabled</source>
        <translation>只读模式：破坏性操作已禁用</translation>
    </message>
    <message>
        <source>force release</source>
        <translation>强制释放</translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <source>deleted on %1 of %2 nodes, left to a new holder on %3, unreachable %4</source>
        <translation>已在 %2 个节点中的 %1 个上删除，%3 个留给新的持有者，%4 个不可达</translation>
    </message>
    <message>
        <source>Take the selected node out for longer than the largest TTL, then start it again (kept down by the console; with SHUTDOWN NOSAVE only watched)</source>
        <translation>让所选节点停机超过最大 TTL，然后重新启动（由控制台保持停机；使用 SHUTDOWN NOSAVE 时仅监视）</translation>
    </message>
    <message>
        <source>node #%1 %2 answered %3 before its delay has passed: %4</source>
        <translation>节点 #%1 %2 在延迟结束前 %3 应答：%4</translation>
    </message>
    <message>
        <source>answers — %1 of the delay left</source>
        <translation>已应答 — 延迟还剩 %1</translation>
    </message>
    <message>
        <source>kept down — %1</source>
        <translation>保持停机 — %1</translation>
    </message>
    <message>
        <source>watched — %1</source>
        <translation>监视中 — %1</translation>
    </message>
    <message>
        <source>released with a lock-delay on %1 of %2 nodes (up to %3 ms), left to a new holder on %4, unreachable %5</source>
        <translation>已在 %2 个节点中的 %1 个上以锁延迟释放（最长 %3 毫秒），%4 个留给新的持有者，%5 个不可达</translation>
    </message>
    <message>
        <source>restart given up</source>
        <translation>重启已放弃</translation>
    </message>
    <message>
        <source>start failed</source>
        <translation>启动失败</translation>
    </message>
    <message>
        <source>node #%1 %2 could not be started (%3), kept out; next attempt in %4</source>
        <translation>节点 #%1 %2 无法启动（%3），仍被隔离；%4 后再次尝试</translation>
    </message>
    <message>
        <source>operator action failed</source>
        <translation>操作员操作失败</translation>
    </message>
    <message>
        <source>kept out — check it, then abandon its restart</source>
        <translation>已隔离 — 请检查该节点，然后放弃其重启</translation>
    </message>
    <message>
        <source> — its result could not be written to the audit log (the intent line is there): %1</source>
        <translation> — 其结果无法写入审计日志（意图记录已写入）：%1</translation>
    </message>
</context>
<context>
    <name>redlock::PasswordKeyring</name>
    <message>
        <source>the keyring holds no password for this node</source>
        <translation>密钥环中没有此节点的密码</translation>
    </message>
    <message>
        <source>no keyring is running (Secret Service: gnome-keyring or KWallet); choose &quot;Ask at connect&quot; or an environment variable instead (%1)</source>
        <translation>没有正在运行的密钥环（Secret Service：gnome-keyring 或 KWallet）；请改为选择“连接时询问”或环境变量（%1）</translation>
    </message>
    <message>
        <source>the keyring refused: %1</source>
        <translation>密钥环拒绝了请求：%1</translation>
    </message>
</context>
<context>
    <name>redlock::PostgresJournalStore</name>
    <message>
        <source>%1: not a postgresql://user@host[:port]/database URL</source>
        <translation>%1：不是 postgresql://user@host[:port]/database 形式的 URL</translation>
    </message>
    <message>
        <source>a --journal URL holds no password (the command line is visible to every user of this machine): remove it from the URL and give it in PGPASSWORD or ~/.pgpass</source>
        <translation>--journal 的 URL 中不能包含密码（本机的每个用户都能看到命令行）：请将其从 URL 中删除，改为通过 PGPASSWORD 或 ~/.pgpass 提供</translation>
    </message>
    <message>
        <source>%1: the URL names no user or no database: postgresql://user@host[:port]/database</source>
        <translation>%1：URL 中没有指定用户或数据库：postgresql://user@host[:port]/database</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>the database server&apos;s disk is full (%1)</source>
        <translation>数据库服务器的磁盘已满（%1）</translation>
    </message>
    <message>
        <source>the server is read-only (a standby replica?): point --journal at the primary (%1)</source>
        <translation>服务器是只读的（可能是备用副本？）：请将 --journal 指向主服务器（%1）</translation>
    </message>
    <message>
        <source>%1 (the password comes from PGPASSWORD or ~/.pgpass, never from the URL)</source>
        <translation>%1（密码来自 PGPASSWORD 或 ~/.pgpass，绝不来自 URL）</translation>
    </message>
    <message>
        <source>the server does not answer (%1); the journal connects again</source>
        <translation>服务器无应答（%1）；日志将重新连接</translation>
    </message>
    <message>
        <source>the Qt PostgreSQL driver is missing (Debian: libqt6sql6-psql)</source>
        <translation>缺少 Qt PostgreSQL 驱动（Debian：libqt6sql6-psql）</translation>
    </message>
    <message>
        <source>cannot connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>cannot open</source>
        <translation>无法打开</translation>
    </message>
    <message>
        <source>cannot read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>no lock history in this database yet (the console, `redlock watch --journal URL` and `redlock exporter --journal URL` write it)</source>
        <translation>此数据库中还没有锁历史（由控制台、`redlock watch --journal URL` 和 `redlock exporter --journal URL` 写入）</translation>
    </message>
    <message>
        <source>the history there has schema version %1, written by a newer Redlock Console; this one reads up to %2: upgrade it</source>
        <translation>该处的历史的架构版本为 %1，由更新版本的 Redlock Console 写入；此版本最多只能读取版本 %2：请升级此程序</translation>
    </message>
    <message>
        <source>the server is read-only (a standby replica?): the history is written to the primary; point --journal at it</source>
        <translation>服务器是只读的（可能是备用副本？）：历史要写入主服务器；请将 --journal 指向主服务器</translation>
    </message>
    <message>
        <source>cannot create the tables</source>
        <translation>无法创建数据表</translation>
    </message>
    <message>
        <source>the history there has schema version %1, written by a newer Redlock Console; this one writes version %2 and leaves it alone: upgrade this writer</source>
        <translation>该处的历史的架构版本为 %1，由更新版本的 Redlock Console 写入；此版本写入的是版本 %2，因此不会改动它：请升级此写入者</translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation>无法写入</translation>
    </message>
    <message>
        <source>no session</source>
        <translation>没有会话</translation>
    </message>
    <message>
        <source>cannot prune</source>
        <translation>无法清理</translation>
    </message>
</context>
<context>
    <name>redlock::PrivateFile</name>
    <message>
        <source>%1 holds lock tokens and others may read it (mode %2), and it cannot be made private (%3): make it readable by its owner only (chmod 600)</source>
        <translation>%1 包含锁令牌且其他用户可以读取它（权限 %2），并且无法将其设为私有（%3）：请使其仅对所有者可读（chmod 600）</translation>
    </message>
    <message>
        <source>cannot create the folder %1: %2</source>
        <translation>无法创建文件夹 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a folder</source>
        <translation>%1 不是文件夹</translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
</context>
<context>
    <name>redlock::ProfilesDialog</name>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>Read-only: no action may write to the nodes</source>
        <translation>只读：任何操作都不得写入节点</translation>
    </message>
    <message>
        <source>Connection profiles</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <source>Saved profiles</source>
        <translation>已保存的配置</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>DB</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>ACL user</source>
        <translation>ACL 用户</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Add node</source>
        <translation>添加节点</translation>
    </message>
    <message>
        <source>Remove node</source>
        <translation>移除节点</translation>
    </message>
    <message>
        <source>Check connection</source>
        <translation>检查连接</translation>
    </message>
    <message>
        <source>host:port, [v6]:port, unix:/path/redis.sock</source>
        <translation>host:port、[v6]:端口、unix:/路径/redis.sock</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>No password</source>
        <translation>无密码</translation>
    </message>
    <message>
        <source>Ask at connect</source>
        <translation>连接时询问</translation>
    </message>
    <message>
        <source>From environment variable</source>
        <translation>来自环境变量</translation>
    </message>
    <message>
        <source>e.g. REDIS_PASSWORD_1</source>
        <translation>例如 REDIS_PASSWORD_1</translation>
    </message>
    <message>
        <source>CA bundle (PEM); empty = system store</source>
        <translation>CA 证书包（PEM）；留空 = 系统证书库</translation>
    </message>
    <message>
        <source>client certificate (PEM)</source>
        <translation>客户端证书（PEM）</translation>
    </message>
    <message>
        <source>client key (PEM)</source>
        <translation>客户端私钥（PEM）</translation>
    </message>
    <message>
        <source>name to verify; empty = host</source>
        <translation>要验证的名称；留空 = 主机名</translation>
    </message>
    <message>
        <source>Selected node</source>
        <translation>所选节点</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <source>Password for the check</source>
        <translation>检查用密码</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA 文件</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>客户端证书</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>客户端私钥</translation>
    </message>
    <message>
        <source>TLS server name</source>
        <translation>TLS 服务器名称</translation>
    </message>
    <message>
        <source>*</source>
        <translation>*</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Watching</source>
        <translation>监视设置</translation>
    </message>
    <message>
        <source>Key pattern</source>
        <translation>键模式</translation>
    </message>
    <message>
        <source>Clock drift factor</source>
        <translation>时钟漂移系数</translation>
    </message>
    <message>
        <source>Full refresh every</source>
        <translation>完整刷新间隔</translation>
    </message>
    <message>
        <source>&quot;Check connection&quot; reports every node here, step by step.</source>
        <translation>“检查连接”会在这里逐步报告每个节点的结果。</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Delete profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <source>Delete the profile &quot;%1&quot;?</source>
        <translation>删除配置“%1”？</translation>
    </message>
    <message>
        <source>Cannot connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message>
        <source>ask at connect</source>
        <translation>连接时询问</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Cannot save the profile</source>
        <translation>无法保存配置</translation>
    </message>
    <message>
        <source>Saved &quot;%1&quot; (passwords are not saved).</source>
        <translation>已保存“%1”（密码不会保存）。</translation>
    </message>
    <message numerus="yes">
        <source>Checking %n node(s)…</source>
        <translation>
            <numerusform>正在检查 %n 个节点…</numerusform>
        </translation>
    </message>
    <message>
        <source>address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>    %1 %2: %3</source>
        <translation>    %1 %2：%3</translation>
    </message>
    <message>
        <source>    failing step: %1</source>
        <translation>    失败的步骤：%1</translation>
    </message>
    <message>
        <source>Production: force release and restarts need the key or node typed in</source>
        <translation>生产环境：强制释放和重启需要输入键名或节点</translation>
    </message>
    <message>
        <source>add at least one node</source>
        <translation>请至少添加一个节点</translation>
    </message>
    <message>
        <source>node %1 (%2): ready for Redlock</source>
        <translation>节点 %1（%2）：可用于 Redlock</translation>
    </message>
    <message>
        <source>node %1 (%2): failed</source>
        <translation>节点 %1（%2）：失败</translation>
    </message>
    <message>
        <source>Cannot open the profile</source>
        <translation>无法打开配置</translation>
    </message>
    <message>
        <source>Remember in the keyring</source>
        <translation>保存在密钥环中</translation>
    </message>
    <message>
        <source>for the check; saved only in the keyring, when chosen above</source>
        <translation>用于检查；仅当上方选择了密钥环时才保存（且只保存在密钥环中）</translation>
    </message>
    <message>
        <source>keyring</source>
        <translation>密钥环</translation>
    </message>
    <message>
        <source>Node %1: the password could not be kept in the keyring: %2</source>
        <translation>节点 %1：无法将密码保存到密钥环：%2</translation>
    </message>
    <message>
        <source>Saved &quot;%1&quot; (passwords only in the keyring, not in the profile).</source>
        <translation>已保存“%1”（密码只保存在密钥环中，不写入配置）。</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>this console&apos;s own journal</source>
        <translation>本控制台自己的日志</translation>
    </message>
    <message>
        <source>The deployment&apos;s lock history: the journal `redlock exporter --journal` writes. The history view shows it, including what happened while this console was closed; the console reads it only.</source>
        <translation>部署的锁历史：即 `redlock exporter --journal` 写入的日志。历史视图会显示它，包括本控制台关闭期间发生的事；控制台只读取它。</translation>
    </message>
    <message>
        <source>Lock history</source>
        <translation>锁历史</translation>
    </message>
    <message>
        <source>direct; or user@bastion, or jump1,jump2</source>
        <translation>直连；或 user@bastion，或 jump1,jump2</translation>
    </message>
    <message>
        <source>Reach every TCP node through this SSH jump host (ProxyJump chain: hops separated by commas), with the system&apos;s ssh client: your ~/.ssh/config, ssh-agent and known_hosts; an unknown or changed host key is refused.</source>
        <translation>通过此 SSH 跳板机访问每个 TCP 节点（ProxyJump 链：多个跳板以逗号分隔），使用系统的 ssh 客户端：沿用你的 ~/.ssh/config、ssh-agent 和 known_hosts；主机密钥未知或已变更时拒绝连接。</translation>
    </message>
    <message>
        <source>~/.ssh/config</source>
        <translation>~/.ssh/config</translation>
    </message>
    <message>
        <source>SSH jump host</source>
        <translation>SSH 跳板机</translation>
    </message>
    <message>
        <source>SSH route</source>
        <translation>SSH 路由</translation>
    </message>
    <message>
        <source>ssh config file</source>
        <translation>ssh 配置文件</translation>
    </message>
    <message>
        <source>Rename profile</source>
        <translation>重命名配置</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Deleted &quot;%1&quot;.</source>
        <translation>已删除“%1”。</translation>
    </message>
    <message>
        <source>Deleted &quot;%1&quot;; these passwords could not be removed from the keyring: %2</source>
        <translation>已删除“%1”；以下密码无法从密钥环中移除：%2</translation>
    </message>
    <message>
        <source>A profile named &quot;%1&quot; exists already.</source>
        <translation>已存在名为“%1”的配置。</translation>
    </message>
    <message>
        <source>Renamed &quot;%1&quot; to &quot;%2&quot;; these passwords could not be moved in the keyring: %3</source>
        <translation>已将“%1”重命名为“%2”；以下密码无法在密钥环中迁移：%3</translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation>SSH 隧道</translation>
    </message>
    <message>
        <source>Starting the SSH tunnel via %1…</source>
        <translation>正在启动经由 %1 的 SSH 隧道…</translation>
    </message>
</context>
<context>
    <name>redlock::RedisConnection</name>
    <message>
        <source>connect timed out after %1 ms</source>
        <translation>连接在 %1 毫秒后超时</translation>
    </message>
    <message>
        <source>connection closed</source>
        <translation>连接已关闭</translation>
    </message>
    <message>
        <source>server closed the connection</source>
        <translation>服务器关闭了连接</translation>
    </message>
    <message>
        <source>no CA certificate could be read from %1</source>
        <translation>无法从 %1 读取 CA 证书</translation>
    </message>
    <message>
        <source>no client certificate could be read from %1</source>
        <translation>无法从 %1 读取客户端证书</translation>
    </message>
    <message>
        <source>the client key in %1 could not be read</source>
        <translation>无法读取 %1 中的客户端私钥</translation>
    </message>
    <message>
        <source>cannot open client key %1</source>
        <translation>无法打开客户端私钥 %1</translation>
    </message>
    <message>
        <source>TLS verification failed: %1</source>
        <translation>TLS 验证失败：%1</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>timed out while connecting</source>
        <translation>连接时超时</translation>
    </message>
    <message>
        <source>cannot buffer reply</source>
        <translation>无法缓冲回复</translation>
    </message>
    <message>
        <source>malformed reply: %1</source>
        <translation>格式错误的回复：%1</translation>
    </message>
    <message>
        <source>reply without a command</source>
        <translation>收到没有对应命令的回复</translation>
    </message>
    <message>
        <source>empty command</source>
        <translation>空命令</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>node down: %1</source>
        <translation>节点离线：%1</translation>
    </message>
    <message>
        <source>no reply in time</source>
        <translation>未及时收到回复</translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation>连接丢失</translation>
    </message>
    <message>
        <source>no CA certificate could be read from the directory %1</source>
        <translation>无法从目录 %1 读取任何 CA 证书</translation>
    </message>
    <message>
        <source>reply larger than %1: connection dropped</source>
        <translation>回复大于 %1：连接已断开</translation>
    </message>
    <message>
        <source>no reply within %1 ms after a command timed out: connection dropped</source>
        <translation>命令超时后 %1 毫秒内仍无回复：连接已断开</translation>
    </message>
    <message>
        <source>SSH tunnel down (%1)</source>
        <translation>SSH 隧道已断开（%1）</translation>
    </message>
</context>
<context>
    <name>redlock::RedisErrorKind</name>
    <message>
        <source>no error</source>
        <translation>无错误</translation>
    </message>
    <message>
        <source>connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <source>host not found</source>
        <translation>找不到主机</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>no permission</source>
        <translation>无权限</translation>
    </message>
    <message>
        <source>read-only replica</source>
        <translation>只读副本</translation>
    </message>
    <message>
        <source>wrong type</source>
        <translation>类型错误</translation>
    </message>
    <message>
        <source>script not loaded</source>
        <translation>脚本未加载</translation>
    </message>
    <message>
        <source>loading data set</source>
        <translation>正在加载数据集</translation>
    </message>
    <message>
        <source>connection lost</source>
        <translation>连接丢失</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>TLS error</source>
        <translation>TLS 错误</translation>
    </message>
    <message>
        <source>protocol error</source>
        <translation>协议错误</translation>
    </message>
    <message>
        <source>server error</source>
        <translation>服务器错误</translation>
    </message>
</context>
<context>
    <name>redlock::RedlockClient</name>
    <message>
        <source>no node answered (or every one refused): nothing was released, and the lock may still be held until it expires</source>
        <translation>没有节点应答（或全部拒绝）：未释放任何内容，锁可能仍被持有，直到过期</translation>
    </message>
    <message>
        <source>the token was not found on the %1 node(s) that answered; %2 node(s) did not answer or refused, and may still hold it</source>
        <translation>在已应答的 %1 个节点上未找到该令牌；%2 个节点未应答或拒绝，可能仍持有它</translation>
    </message>
    <message>
        <source>released on %1 node(s) only; %2 node(s) did not answer or refused, and may still hold it</source>
        <translation>仅在 %1 个节点上释放；%2 个节点未应答或拒绝，可能仍持有它</translation>
    </message>
    <message>
        <source>no nodes configured: Redlock needs N independent Redis masters</source>
        <translation>未配置节点：Redlock 需要 N 个相互独立的 Redis 主节点</translation>
    </message>
    <message>
        <source>per-node timeout must be positive</source>
        <translation>单节点超时必须为正数</translation>
    </message>
    <message>
        <source>retry count, delay and jitter must not be negative</source>
        <translation>重试次数、延迟和抖动不能为负数</translation>
    </message>
    <message>
        <source>TTL %1 ms is not larger than the drift allowance %2 ms</source>
        <translation>TTL %1 毫秒不大于时钟漂移余量 %2 毫秒</translation>
    </message>
    <message>
        <source>the per-node timeout (%1 ms) is not small against the TTL (%2 ms)</source>
        <translation>单节点超时（%1 毫秒）相对于 TTL（%2 毫秒）不够小</translation>
    </message>
    <message>
        <source>the client is shutting down</source>
        <translation>客户端正在关闭</translation>
    </message>
    <message>
        <source>invalid configuration: %1</source>
        <translation>配置无效：%1</translation>
    </message>
    <message>
        <source>unexpected reply from the node</source>
        <translation>节点返回了意外的回复</translation>
    </message>
    <message>
        <source>read-only mode: acquire refused</source>
        <translation>只读模式：拒绝获取锁</translation>
    </message>
    <message>
        <source>no resource given</source>
        <translation>未指定资源</translation>
    </message>
    <message>
        <source>quorum not reached: %1 of %2 nodes, %3 needed</source>
        <translation>未达到法定人数：%2 个节点中只有 %1 个，需要 %3 个</translation>
    </message>
    <message>
        <source>quorum reached too late: %1 ms elapsed leave no validity of a %2 ms TTL</source>
        <translation>达到法定人数太晚：已耗时 %1 毫秒，%2 毫秒的 TTL 已没有剩余有效期</translation>
    </message>
    <message>
        <source>conflict on resource #%1</source>
        <translation>资源 #%1 上发生冲突</translation>
    </message>
    <message>
        <source>fencing token written to %1 nodes only, %2 needed</source>
        <translation>防护令牌只写入了 %1 个节点，需要 %2 个</translation>
    </message>
    <message>
        <source>no validity left after writing the fencing token</source>
        <translation>写入防护令牌后已没有剩余有效期</translation>
    </message>
    <message>
        <source>%1 of %2 keys still held the token</source>
        <translation>%2 个键中有 %1 个仍持有该令牌</translation>
    </message>
    <message>
        <source>the token was not found on any node (expired or taken over): nothing was deleted</source>
        <translation>任何节点上都找不到该令牌（已过期或已被他人获取）：未删除任何内容</translation>
    </message>
    <message>
        <source>released on %1 node(s) only: the lock had already lost its quorum</source>
        <translation>只在 %1 个节点上释放：该锁此前已失去法定人数</translation>
    </message>
    <message>
        <source>read-only mode: release refused</source>
        <translation>只读模式：拒绝释放锁</translation>
    </message>
    <message>
        <source>no lock given</source>
        <translation>未指定锁</translation>
    </message>
    <message>
        <source>read-only mode: extend refused</source>
        <translation>只读模式：拒绝续期</translation>
    </message>
    <message>
        <source>extension cap reached (%1 extensions)</source>
        <translation>已达到续期上限（%1 次续期）</translation>
    </message>
    <message>
        <source>extending by %1 ms would exceed the maximum hold time of %2 ms</source>
        <translation>续期 %1 毫秒将超过最长持有时间 %2 毫秒</translation>
    </message>
    <message>
        <source>the lock&apos;s validity has already run out: it may be held by someone else now</source>
        <translation>该锁的有效期已经耗尽：它现在可能已被他人持有</translation>
    </message>
    <message>
        <source>extended on %1 node(s), %2 needed: the lock is lost</source>
        <translation>只在 %1 个节点上续期成功，需要 %2 个：锁已丢失</translation>
    </message>
    <message>
        <source>the extension came after the lock&apos;s validity ran out: the lock is lost</source>
        <translation>续期发生在锁的有效期耗尽之后：锁已丢失</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is the key of the fencing counters: no lock can take that name</source>
        <translation>“%1”是防护计数器的键：任何锁都不能使用这个名称</translation>
    </message>
    <message>
        <source>the extension took longer than the new validity (%1 ms TTL): the lock is lost</source>
        <translation>续期耗时超过了新的有效期（TTL %1 毫秒）：锁已丢失</translation>
    </message>
    <message>
        <source>a blocking call on the client&apos;s own thread would deadlock</source>
        <translation>在客户端自身线程上进行阻塞调用会导致死锁</translation>
    </message>
    <message>
        <source>the client was shut down</source>
        <translation>客户端已关闭</translation>
    </message>
    <message>
        <source>the same server as node %1 (run_id %2): its vote counts once</source>
        <translation>与节点 %1 是同一台服务器（run_id %2）：它的票只计一次</translation>
    </message>
</context>
<context>
    <name>redlock::RestartDialog</name>
    <message>
        <source>Delayed restart of node #%1</source>
        <translation>节点 #%1 的延迟重启</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Allow a delay shorter than the default</source>
        <translation>允许短于默认值的延迟</translation>
    </message>
    <message>
        <source>Default %1 = max(configured max TTL %2, largest PTTL seen on the node %3) + drift %4</source>
        <translation>默认 %1 = max（配置的最大 TTL %2，该节点上见到的最大 PTTL %3）+ 时钟漂移 %4</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>e.g. systemctl stop redis-server@7001</source>
        <translation>例如 systemctl stop redis-server@7001</translation>
    </message>
    <message>
        <source>e.g. systemctl start redis-server@7001</source>
        <translation>例如 systemctl start redis-server@7001</translation>
    </message>
    <message>
        <source>Stop command:</source>
        <translation>停止命令：</translation>
    </message>
    <message>
        <source>Start command:</source>
        <translation>启动命令：</translation>
    </message>
    <message>
        <source>Run without a shell: the first word is the program, the rest its arguments.</source>
        <translation>不经 shell 运行：第一个词是程序，其余是参数。</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Holders now → while down</source>
        <translation>当前持有节点数 → 离线期间</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>No lock held now falls below quorum while the node is out.</source>
        <translation>节点离线期间，当前持有的锁都不会低于法定人数。</translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s) fall below quorum (quorum %1) while the node is out:</source>
        <translation>
            <numerusform>节点离线期间，有 %n 个锁会低于法定人数（法定人数 %1）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Type %1 to restart anyway</source>
        <translation>输入 %1 以强制重启</translation>
    </message>
    <message>
        <source>Refused: %1. Type “%2” to override.</source>
        <translation>已拒绝：%1。输入“%2”以强制执行。</translation>
    </message>
    <message>
        <source>%1 of %2 nodes stay counted while the node is out (quorum %3).</source>
        <translation>节点离线期间，%2 个节点中仍有 %1 个被计入（法定人数 %3）。</translation>
    </message>
    <message>
        <source>Why (written to the audit log)</source>
        <translation>原因（写入审计日志）</translation>
    </message>
    <message>
        <source>Read-only mode: nodes cannot be restarted.</source>
        <translation>只读模式：不能重启节点。</translation>
    </message>
    <message>
        <source>Delay:</source>
        <translation>延迟：</translation>
    </message>
    <message>
        <source>How:</source>
        <translation>方式：</translation>
    </message>
    <message>
        <source>Restart with delay</source>
        <translation>延迟重启</translation>
    </message>
    <message>
        <source>Stopping the node…</source>
        <translation>正在停止节点…</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <source>Send SHUTDOWN NOSAVE: the node drops its data and comes back when something else (a supervisor) starts it, perhaps at once</source>
        <translation>发送 SHUTDOWN NOSAVE：节点丢弃其数据，并在其他程序（守护进程）启动它时恢复，可能立即恢复</translation>
    </message>
    <message>
        <source>Node #%1 %2 is stopped and kept down until the delay has passed, counted from the confirmed stop; then it is started again. Meanwhile the console does not count it for quorum. A node that may have lost its data must stay out longer than the largest TTL of any lock it voted for.</source>
        <translation>节点 #%1 %2 将被停止，并保持停机直到延迟结束（从确认停止时开始计算），然后重新启动。在此期间控制台不将其计入法定数。可能丢失数据的节点必须停机超过它投票过的任何锁的最大 TTL。</translation>
    </message>
    <message>
        <source>Node #%1 %2 is sent SHUTDOWN NOSAVE. Nothing here keeps it down: a supervisor (systemd Restart=always, Kubernetes) usually starts it again at once, empty, and clients count it as soon as it answers. The delay is only watched: if the node answers before it has passed, it is flagged in the event log, the nodes table and the audit log. To enforce the delay, use stop and start commands instead.</source>
        <translation>将向节点 #%1 %2 发送 SHUTDOWN NOSAVE。这里没有任何机制让它保持停机：守护进程（systemd Restart=always、Kubernetes）通常会立即以空数据重新启动它，客户端一旦收到应答就会计入它。延迟仅被监视：如果节点在延迟结束前应答，会在事件日志、节点表和审计日志中标记。要强制执行延迟，请改用停止和启动命令。</translation>
    </message>
    <message>
        <source>Node #%1 is stopped and kept down until %2.</source>
        <translation>节点 #%1 已停止，并保持停机直到 %2。</translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE sent to node #%1. Watched until %2: if it answers earlier, it is flagged.</source>
        <translation>已向节点 #%1 发送 SHUTDOWN NOSAVE。监视至 %2：如果它提前应答，将被标记。</translation>
    </message>
    <message>
        <source>Note: %1.</source>
        <translation>注意：%1。</translation>
    </message>
    <message>
        <source>(the first %1 by key are listed)</source>
        <translation>（按键名列出前 %1 个）</translation>
    </message>
    <message>
        <source>Counting the locks… (%1 of %2)</source>
        <translation>正在统计锁…（%1 / %2）</translation>
    </message>
</context>
<context>
    <name>redlock::RestartMethod</name>
    <message>
        <source>local cluster process</source>
        <translation>本地集群进程</translation>
    </message>
    <message>
        <source>stop and start commands</source>
        <translation>停止与启动命令</translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE (a supervisor restarts it; the delay is only watched)</source>
        <translation>SHUTDOWN NOSAVE（由守护进程重启；延迟仅被监视）</translation>
    </message>
</context>
<context>
    <name>redlock::RestartPlanner</name>
    <message>
        <source>with node %1 out, %2 of %3 nodes would be counted (%4 already down or quarantined): fewer than the quorum of %5, so no lock could be acquired or extended until it is back</source>
        <translation>节点 %1 离线后，%3 个节点中只有 %2 个会被计入（%4 个已离线或被隔离）：少于法定人数 %5，在它恢复之前无法获取或续期任何锁</translation>
    </message>
    <message numerus="yes">
        <source>node %1 is the same Redis server as node(s) %2 (same run_id): taking it out takes %n other name(s) out too</source>
        <translation>
            <numerusform>节点 %1 与节点 %2 是同一个 Redis 服务器（run_id 相同）：停用它会同时停用另外 %n 个名称</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::RestartState</name>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>waiting out the delay</source>
        <translation>等待延迟结束</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>restarted</source>
        <translation>已重启</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>abandoned</source>
        <translation>已放弃</translation>
    </message>
</context>
<context>
    <name>redlock::SafetyAudit</name>
    <message>
        <source>Even number of nodes</source>
        <translation>节点数为偶数</translation>
    </message>
    <message>
        <source>Node is a replica</source>
        <translation>节点是副本</translation>
    </message>
    <message>
        <source>%1 replicate(s) another server: a replica refuses lock writes, and its data is not independent of its master. Redlock needs N independent masters.</source>
        <translation>%1 正在复制另一台服务器：副本会拒绝锁的写入，且其数据并不独立于其主节点。Redlock 需要 N 个相互独立的主节点。</translation>
    </message>
    <message>
        <source>Node has replicas</source>
        <translation>节点有副本</translation>
    </message>
    <message>
        <source>%1 replicate(s) to other servers. Replication is asynchronous: after a failover the promoted replica may lack a lock the old master granted, and a second client gets it.</source>
        <translation>%1 正在向其他服务器复制。复制是异步的：故障转移后，被提升的副本可能缺少旧主节点已授予的锁，于是第二个客户端也能获得它。</translation>
    </message>
    <message>
        <source>Node restarted within the lock TTL</source>
        <translation>节点在锁 TTL 内重启</translation>
    </message>
    <message>
        <source>Node started within the lock TTL</source>
        <translation>节点在锁 TTL 内启动</translation>
    </message>
    <message>
        <source>%1 started less than the largest TTL (%2 ms) ago without fsync&apos;ed AOF. If it came back from a crash sooner than that after it went down, locks it had granted are gone and can be granted twice. The downtime was not observed here.</source>
        <translation>%1 启动至今不到最大 TTL（%2 毫秒），且没有经 fsync 的 AOF。如果它在崩溃后比这更快地恢复，它已授予的锁便已丢失，可能被授予两次。此处未观测到停机时间。</translation>
    </message>
    <message>
        <source>Persistence can lose locks</source>
        <translation>持久化可能丢失锁</translation>
    </message>
    <message>
        <source>%1 run(s) without AOF or with appendfsync other than &quot;always&quot;: a crash loses recent locks. Safe only if restarts are delayed by more than the max TTL.</source>
        <translation>%1 未开启 AOF，或 appendfsync 不是“always”：崩溃会丢失最近的锁。只有在重启延迟超过最大 TTL 时才安全。</translation>
    </message>
    <message>
        <source>Lock keys can be evicted</source>
        <translation>锁键可能被驱逐</translation>
    </message>
    <message>
        <source>%1 evict(s) keys under memory pressure (maxmemory-policy is not noeviction and a memory limit is set): a held lock can vanish.</source>
        <translation>%1 在内存压力下会驱逐键（maxmemory-policy 不是 noeviction 且设置了内存上限）：已持有的锁可能消失。</translation>
    </message>
    <message>
        <source>Eviction policy allows evicting locks</source>
        <translation>驱逐策略允许驱逐锁</translation>
    </message>
    <message>
        <source>%1 use(s) a maxmemory-policy other than noeviction; once a memory limit is set, lock keys can be evicted.</source>
        <translation>%1 使用的 maxmemory-policy 不是 noeviction；一旦设置内存上限，锁键就可能被驱逐。</translation>
    </message>
    <message>
        <source>Clock offset beyond the drift budget</source>
        <translation>时钟偏移超出漂移预算</translation>
    </message>
    <message>
        <source>The clock of %1 differs from this machine&apos;s by more than the drift budget (%2 ms). A clock step (NTP) on a node expires locks early; check time synchronisation (this machine&apos;s clock may be the one that is off).</source>
        <translation>%1 的时钟与本机时钟的差异超过了时钟漂移预算（%2 毫秒）。节点上的时钟跳变（NTP）会使锁提前过期；请检查时间同步（也可能是本机时钟有偏差）。</translation>
    </message>
    <message>
        <source>Same server listed twice</source>
        <translation>同一服务器被列出两次</translation>
    </message>
    <message>
        <source>%1 are the same Redis server (same run_id): its vote counts twice, so a quorum can be reached with fewer independent nodes than required.</source>
        <translation>%1 是同一个 Redis 服务器（run_id 相同）：它的票会被计算两次，因此可能以少于所需数量的独立节点达到法定人数。</translation>
    </message>
    <message>
        <source>Node could not be audited</source>
        <translation>无法审计节点</translation>
    </message>
    <message>
        <source>The facts of %1 could not be read (node down, or INFO / CONFIG GET refused); the checks do not cover it.</source>
        <translation>无法读取 %1 的信息（节点离线，或 INFO / CONFIG GET 被拒绝）；各项检查未覆盖它。</translation>
    </message>
    <message>
        <source>%1 lost its locks on restart (no fsync&apos;ed AOF) and came back before the largest TTL plus clock drift (%2 ms) had passed: a lock it had granted can now be granted again, breaking mutual exclusion. Delay restarts by at least the max TTL plus drift.</source>
        <translation>%1 重启时丢失了它的锁（没有 fsync 的 AOF），并且在最大 TTL 加时钟漂移（%2 毫秒）过去之前就恢复了：它曾授予的锁现在可能被再次授予，破坏互斥。请将重启至少延迟最大 TTL 加漂移的时间。</translation>
    </message>
    <message>
        <source>No quorum of nodes could be audited</source>
        <translation>可审计的节点不足法定数量</translation>
    </message>
    <message>
        <source>The facts of %1 could not be read (node down, or INFO / CONFIG GET refused): only %2 of %3 nodes were audited, fewer than the quorum of %4. The safety of these locks cannot be judged.</source>
        <translation>无法读取 %1 的信息（节点离线，或 INFO / CONFIG GET 被拒绝）：%3 个节点中只审计了 %2 个，少于法定数量 %4。无法判断这些锁的安全性。</translation>
    </message>
    <message>
        <source>Persistence can lose fencing counters</source>
        <translation>持久化可能丢失防护计数器</translation>
    </message>
    <message>
        <source>Fencing is in use (counters found on %1), and %2 run(s) without AOF or with appendfsync other than &quot;always&quot;: a crash loses recent locks and fencing counters. Delaying the restart protects the locks but not the counters, so fencing tokens can go backwards. Use appendonly yes with appendfsync always on every node.</source>
        <translation>正在使用防护令牌（在 %1 上发现了计数器），而 %2 未启用 AOF 或 appendfsync 不是“always”：崩溃会丢失最近的锁和防护计数器。延迟重启可以保护锁，但保护不了计数器，因此防护令牌可能倒退。请在每个节点上使用 appendonly yes 并设置 appendfsync always。</translation>
    </message>
    <message>
        <source>Fewer than %1 nodes</source>
        <translation>少于 %1 个节点</translation>
    </message>
    <message>
        <source>Node not yet audited</source>
        <translation>节点尚未审计</translation>
    </message>
    <message>
        <source>The facts of %1 have not been read yet (connecting, or the first INFO round is on its way); the checks cover it once they are.</source>
        <translation>尚未读取 %1 的信息（正在连接，或第一轮 INFO 尚未返回）；读取之后，各项检查便会涵盖它。</translation>
    </message>
</context>
<context>
    <name>redlock::Severity</name>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>severe</source>
        <translation>严重</translation>
    </message>
</context>
<context>
    <name>redlock::ShutdownRestartBackend</name>
    <message>
        <source>SHUTDOWN NOSAVE failed: %1</source>
        <translation>SHUTDOWN NOSAVE 失败：%1</translation>
    </message>
    <message>
        <source>SHUTDOWN NOSAVE was answered instead of closing the connection</source>
        <translation>SHUTDOWN NOSAVE 收到了回复，而不是关闭连接</translation>
    </message>
</context>
<context>
    <name>redlock::SshTunnel</name>
    <message>
        <source>SSH to %1: no tunnel within %2 s</source>
        <translation>SSH 到 %1：%2 秒内未能建立隧道</translation>
    </message>
    <message>
        <source>bad SSH hop &quot;%1&quot;: expected [user@]host[:port], hops separated by commas</source>
        <translation>SSH 跳板“%1”无效：应为 [user@]host[:port]，多个跳板以逗号分隔</translation>
    </message>
    <message>
        <source>SSH to %1: cannot run %2: %3</source>
        <translation>SSH 到 %1：无法运行 %2：%3</translation>
    </message>
    <message>
        <source>SSH to %1: refused: the host key has CHANGED since it was recorded in known_hosts (someone may be intercepting the connection, or the host was reinstalled). Check the new key with the host&apos;s administrator before replacing the old one (ssh-keygen -R).</source>
        <translation>SSH 到 %1：已拒绝：主机密钥自记录到 known_hosts 以来已经变更（可能有人在拦截连接，或该主机已重装）。替换旧密钥（ssh-keygen -R）之前，请先与该主机的管理员核对新密钥。</translation>
    </message>
    <message>
        <source>SSH to %1: refused: the host key is not known (not in known_hosts). Check it, then record it by connecting once with ssh.</source>
        <translation>SSH 到 %1：已拒绝：主机密钥未知（不在 known_hosts 中）。请先核对该密钥，然后用 ssh 连接一次以记录它。</translation>
    </message>
    <message>
        <source>SSH to %1: login refused (no key accepted; is ssh-agent running, is the key authorised?)</source>
        <translation>SSH 到 %1：登录被拒绝（没有密钥被接受；ssh-agent 是否在运行？该密钥是否已授权？）</translation>
    </message>
    <message>
        <source>ssh exited (status %1)</source>
        <translation>ssh 已退出（状态 %1）</translation>
    </message>
    <message>
        <source>SSH to %1: %2</source>
        <translation>SSH 到 %1：%2</translation>
    </message>
    <message>
        <source>node %1 is a unix socket: it cannot be reached over SSH</source>
        <translation>节点 %1 是 unix 套接字：无法通过 SSH 访问</translation>
    </message>
    <message>
        <source>cannot make a private directory for the SSH tunnel&apos;s sockets in %1</source>
        <translation>无法在 %1 中为 SSH 隧道的套接字创建私有目录</translation>
    </message>
    <message>
        <source>SSH to %1: refused: the host key of %2 is not known (not in known_hosts). Check it, then record it by connecting once with ssh.</source>
        <translation>SSH 到 %1：已拒绝：%2 的主机密钥未知（不在 known_hosts 中）。请先核对该密钥，然后用 ssh 连接一次以记录它。</translation>
    </message>
    <message>
        <source>SSH route %1: the ProxyJump settings of the ssh config make a loop: %2</source>
        <translation>SSH 路由 %1：ssh 配置中的 ProxyJump 设置构成了循环：%2</translation>
    </message>
    <message>
        <source>SSH route %1: the ProxyJump settings of the ssh config nest deeper than %2 jump hosts: %3</source>
        <translation>SSH 路由 %1：ssh 配置中的 ProxyJump 设置嵌套超过 %2 个跳板机：%3</translation>
    </message>
    <message>
        <source>SSH route %1: cannot run %2: %3</source>
        <translation>SSH 路由 %1：无法运行 %2：%3</translation>
    </message>
    <message>
        <source>SSH route %1: ssh -G %2 did not finish within %3 s</source>
        <translation>SSH 路由 %1：ssh -G %2 未在 %3 秒内完成</translation>
    </message>
    <message>
        <source>SSH route %1: ssh cannot read its settings for %2: %3</source>
        <translation>SSH 路由 %1：ssh 无法读取 %2 的设置：%3</translation>
    </message>
    <message>
        <source>ssh -G failed</source>
        <translation>ssh -G 失败</translation>
    </message>
    <message>
        <source>SSH route %1: the ssh config gives %2 a ProxyCommand (%3); redlock cannot make that command check host keys strictly, so it does not run it. Use ProxyJump in the config, or name the jump hosts in the route (jump,%2).</source>
        <translation>SSH 路由 %1：ssh 配置为 %2 指定了 ProxyCommand（%3）；redlock 无法让该命令严格检查主机密钥，因此不会运行它。请在配置中使用 ProxyJump，或在路由中写出跳板机（jump,%2）。</translation>
    </message>
    <message>
        <source>SSH route %1: the ssh config gives %2 a ProxyJump redlock cannot use: %3</source>
        <translation>SSH 路由 %1：ssh 配置为 %2 指定的 ProxyJump 无法被 redlock 使用：%3</translation>
    </message>
    <message>
        <source>%1 (through %2)</source>
        <translation>%1（经由 %2）</translation>
    </message>
</context>
<context>
    <name>redlock::ValidityTimeline</name>
    <message>
        <source>Select a lock to see its validity timeline</source>
        <translation>选择一个锁以查看其有效期时间线</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>+%1 s</source>
        <translation>+%1 秒</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>validity %1</source>
        <translation>有效期 %1</translation>
    </message>
    <message>
        <source>quorum ends %1</source>
        <translation>法定人数结束 %1</translation>
    </message>
    <message>
        <source>drift margin %1 ms</source>
        <translation>漂移余量 %1 毫秒</translation>
    </message>
    <message>
        <source>No quorum holds this key (%1): no validity</source>
        <translation>没有法定人数持有该键（%1）：无有效期</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <source>no permission: %1</source>
        <translation>无权限：%1</translation>
    </message>
    <message>
        <source>not a lock (%1)</source>
        <translation>不是锁（%1）</translation>
    </message>
</context>
<context>
    <name>redlock::WebConfig</name>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>a tab in the indentation (YAML indents with spaces)</source>
        <translation>缩进中含有制表符（YAML 使用空格缩进）</translation>
    </message>
    <message>
        <source>lists and flow collections are not supported here</source>
        <translation>此处不支持列表和流式集合</translation>
    </message>
    <message>
        <source>expected &quot;key: value&quot;</source>
        <translation>应为 &quot;key: value&quot;</translation>
    </message>
    <message>
        <source>only plain or quoted values are supported here</source>
        <translation>此处只支持普通值或带引号的值</translation>
    </message>
    <message>
        <source>a quoted value is not closed, or text follows it</source>
        <translation>带引号的值未闭合，或其后还有文本</translation>
    </message>
    <message>
        <source>indented, but not under a section</source>
        <translation>有缩进，但不在任何节之下</translation>
    </message>
    <message>
        <source>indentation of %1 spaces, but %2 above (only two levels are supported)</source>
        <translation>缩进为 %1 个空格，但上一级为 %2 个（只支持两级）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; appears twice</source>
        <translation>&quot;%1&quot; 出现了两次</translation>
    </message>
    <message>
        <source>tls_server_config must be a section of keys</source>
        <translation>tls_server_config 必须是由键组成的节</translation>
    </message>
    <message>
        <source>min_version: &quot;%1&quot; is not supported (TLS12 or TLS13)</source>
        <translation>min_version：不支持 &quot;%1&quot;（应为 TLS12 或 TLS13）</translation>
    </message>
    <message>
        <source>unknown key tls_server_config.%1 (known: cert_file, key_file, client_ca_file, client_auth_type, min_version)</source>
        <translation>未知的键 tls_server_config.%1（已知的键：cert_file、key_file、client_ca_file、client_auth_type、min_version）</translation>
    </message>
    <message>
        <source>tls_server_config.%1 has no value</source>
        <translation>tls_server_config.%1 没有值</translation>
    </message>
    <message>
        <source>tls_server_config needs both cert_file and key_file</source>
        <translation>tls_server_config 需要同时提供 cert_file 和 key_file</translation>
    </message>
    <message>
        <source>client_auth_type RequireAndVerifyClientCert needs client_ca_file</source>
        <translation>client_auth_type 为 RequireAndVerifyClientCert 时需要 client_ca_file</translation>
    </message>
    <message>
        <source>client_auth_type &quot;%1&quot; is not supported (NoClientCert or RequireAndVerifyClientCert)</source>
        <translation>不支持 client_auth_type &quot;%1&quot;（应为 NoClientCert 或 RequireAndVerifyClientCert）</translation>
    </message>
    <message>
        <source>basic_auth_users must be a section of user: bcrypt-hash lines</source>
        <translation>basic_auth_users 必须是由 user: bcrypt-hash 行组成的节</translation>
    </message>
    <message>
        <source>the password of user &quot;%1&quot; is not a bcrypt hash ($2y$, $2b$ or $2a$, 60 characters; htpasswd -nBC 10 USER makes one)</source>
        <translation>用户“%1”的密码不是 bcrypt 哈希（$2y$、$2b$ 或 $2a$ 开头，60 个字符；可用 htpasswd -nBC 10 USER 生成）</translation>
    </message>
    <message>
        <source>a user name cannot contain &quot;:&quot; in basic auth</source>
        <translation>基本认证中的用户名不能包含 &quot;:&quot;</translation>
    </message>
    <message>
        <source>unknown key &quot;%1&quot; (known: tls_server_config, basic_auth_users)</source>
        <translation>未知的键 &quot;%1&quot;（已知的键：tls_server_config、basic_auth_users）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>this build of Qt has no TLS backend</source>
        <translation>此 Qt 构建没有 TLS 后端</translation>
    </message>
    <message>
        <source>%1: no PEM certificate in it</source>
        <translation>%1：其中没有 PEM 证书</translation>
    </message>
    <message>
        <source>%1: not an unencrypted PEM RSA or EC private key</source>
        <translation>%1：不是未加密的 PEM 格式 RSA 或 EC 私钥</translation>
    </message>
</context>
<context>
    <name>redlock::cli::BenchCommand</name>
    <message>
        <source>%1 acquire failures in a row, the last: %2</source>
        <translation>连续 %1 次获取失败，最后一次：%2</translation>
    </message>
    <message>
        <source>Instead of --nodes, start a local cluster of N redis-server nodes for the run.</source>
        <translation>不使用 --nodes，而是为本次运行启动一个由 N 个 redis-server 节点组成的本地集群。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>With --local: connect to the nodes over unix domain sockets instead of TCP.</source>
        <translation>与 --local 一起使用：通过 unix 域套接字而不是 TCP 连接节点。</translation>
    </message>
    <message>
        <source>Measured acquire+release pairs (default 20000).</source>
        <translation>计量的获取+释放次数（默认 20000）。</translation>
    </message>
    <message>
        <source>Unmeasured pairs first (default 1000).</source>
        <translation>先执行的不计量次数（默认 1000）。</translation>
    </message>
    <message>
        <source>Lock TTL in ms (default 10000).</source>
        <translation>锁的 TTL，单位毫秒（默认 10000）。</translation>
    </message>
    <message>
        <source>MS</source>
        <translation>MS</translation>
    </message>
    <message>
        <source>Per-node timeout in ms (default 50).</source>
        <translation>每个节点的超时，单位毫秒（默认 50）。</translation>
    </message>
    <message>
        <source>With --baseline: run the two clients in N alternating blocks (default 10).</source>
        <translation>与 --baseline 一起使用：两个客户端以 N 个交替的区段运行（默认 10）。</translation>
    </message>
    <message>
        <source>Lock key to use (default redlock-bench:&lt;pid&gt;).</source>
        <translation>使用的锁键（默认 redlock-bench:&lt;pid&gt;）。</translation>
    </message>
    <message>
        <source>KEY</source>
        <translation>KEY</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>KIND</translation>
    </message>
    <message>
        <source>Print the figures as one JSON object.</source>
        <translation>以一个 JSON 对象输出各项数据。</translation>
    </message>
    <message>
        <source>Read-only mode: the benchmark writes lock keys, so it is refused (exit code 2).</source>
        <translation>只读模式：基准测试会写入锁键，因此被拒绝（退出码 2）。</translation>
    </message>
    <message>
        <source>bench [options] (--nodes LIST | --local N)</source>
        <translation>bench [选项] (--nodes LIST | --local N)</translation>
    </message>
    <message>
        <source>read-only mode: bench writes lock keys; nothing was sent</source>
        <translation>只读模式：bench 会写入锁键；未发送任何内容</translation>
    </message>
    <message>
        <source>unknown --baseline &quot;%1&quot; (known: raw)</source>
        <translation>未知的 --baseline &quot;%1&quot;（已知：raw）</translation>
    </message>
    <message>
        <source>give either --nodes LIST or --local N</source>
        <translation>请给出 --nodes LIST 或 --local N 之一</translation>
    </message>
    <message>
        <source>--unix-socket goes with --local; with --nodes, name the sockets (unix:/path,...)</source>
        <translation>--unix-socket 需与 --local 一起使用；使用 --nodes 时请直接写出套接字（unix:/path,...）</translation>
    </message>
    <message>
        <source>cannot start the local cluster: %1</source>
        <translation>无法启动本地集群：%1</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation>配置错误：%1</translation>
    </message>
    <message>
        <source>, %1 alternating blocks</source>
        <translation>，%1 个交替区段</translation>
    </message>
    <message>
        <source>benchmark stopped: %1</source>
        <translation>基准测试已停止：%1</translation>
    </message>
    <message>
        <source>no acquire succeeded (%1 failures): nothing to measure</source>
        <translation>没有一次获取成功（%1 次失败）：无可测量</translation>
    </message>
    <message>
        <source>acquire p50 µs</source>
        <translation>获取 p50 微秒</translation>
    </message>
    <message>
        <source>acquire p99 µs</source>
        <translation>获取 p99 微秒</translation>
    </message>
    <message>
        <source>release p50 µs</source>
        <translation>释放 p50 微秒</translation>
    </message>
    <message>
        <source>release p99 µs</source>
        <translation>释放 p99 微秒</translation>
    </message>
    <message>
        <source>pairs/s</source>
        <translation>次/秒</translation>
    </message>
    <message>
        <source>failures</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>redlock core</source>
        <translation>redlock 核心</translation>
    </message>
    <message>
        <source>raw hiredis</source>
        <translation>原生 hiredis</translation>
    </message>
    <message>
        <source>resident memory after the run: %1 kB (peak %2 kB)</source>
        <translation>运行后的常驻内存：%1 kB（峰值 %2 kB）</translation>
    </message>
    <message>
        <source>K lockers in this process, each on its own key (KEY:0 ... KEY:K-1), each in its own closed loop on one shared client (default 1).</source>
        <translation>本进程中的 K 个加锁者，各用自己的键（KEY:0 ... KEY:K-1），各自在共享的同一个客户端上运行自己的闭环（默认 1）。</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>Also measure a baseline client; &quot;raw&quot;: a minimal hiredis client that sends SET NX PX to all nodes at once and waits for a majority, then releases with the same compare-and-delete script as the core (EVALSHA) on all. One locker only.</source>
        <translation>同时测量一个基准客户端；&quot;raw&quot;：一个最小的 hiredis 客户端，同时向所有节点发送 SET NX PX 并等待多数应答，然后在所有节点上用与核心库相同的比较并删除脚本（EVALSHA）释放。仅一个加锁者。</translation>
    </message>
    <message>
        <source>Measure the Redlock client: a client in a closed loop acquires a lock (one resource, no retry) and releases it, --iterations times after a warm-up (with --concurrency K, K such loops on distinct keys share the client and the pairs). Prints acquire and release latency p50/p99 in microseconds, acquire+release pairs per second and the process&apos;s resident memory. Latencies are measured around the API calls, as a user of the library sees them.</source>
        <translation>测量 Redlock 客户端：一个客户端在闭环中获取一个锁（一个资源，不重试）并释放它，预热之后执行 --iterations 次（使用 --concurrency K 时，K 个这样的闭环在不同的键上共享该客户端和这些次数）。输出获取与释放延迟的 p50/p99（微秒）、每秒获取+释放次数以及进程的常驻内存。延迟在 API 调用前后测量，与库的使用者看到的一致。</translation>
    </message>
    <message>
        <source>the raw baseline runs one locker: --baseline goes with --concurrency 1</source>
        <translation>原生基准只运行一个加锁者：--baseline 只能与 --concurrency 1 一起使用</translation>
    </message>
    <message>
        <source>redlock bench: %1 nodes, %2 acquire+release pairs after %3 warm-up pairs, %4 locker(s) on distinct keys, closed loops, TTL %5 ms%6</source>
        <translation>redlock bench：%1 个节点，%3 次预热之后 %2 次获取+释放，%4 个加锁者使用不同的键，闭环，TTL %5 毫秒%6</translation>
    </message>
    <message>
        <source>acquire p50 ours/raw: %1 (target: at most 1.1)</source>
        <translation>获取 p50 本库/原生：%1（目标：不超过 1.1）</translation>
    </message>
    <message>
        <source>release p50 ours/raw (both compare-and-delete): %1 (target: at most 1.2)</source>
        <translation>释放 p50 本库/原生（两者均为比较并删除）：%1（目标：不超过 1.2）</translation>
    </message>
</context>
<context>
    <name>redlock::cli::ClusterCommand</name>
    <message>
        <source>Number of redis-server nodes (default 5).</source>
        <translation>redis-server 节点数（默认 5）。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Print the nodes as one JSON object instead of one line.</source>
        <translation>以一个 JSON 对象而不是一行文本输出节点。</translation>
    </message>
    <message>
        <source>The nodes also listen on a unix domain socket in their directory; the node list names the sockets (unix:/path,...) instead of the TCP ports.</source>
        <translation>节点还在各自目录中监听 unix 域套接字；节点列表写出套接字（unix:/path,...）而不是 TCP 端口。</translation>
    </message>
    <message>
        <source>cluster [options]</source>
        <translation>cluster [选项]</translation>
    </message>
    <message>
        <source>Start N redis-server processes on free loopback ports in a temporary directory, print the node list (host:port,... on one line, ready for --nodes) and keep them running until SIGINT or SIGTERM; then stop them and remove the directory. The servers also die if this process is killed. Persistence is off: a demo, not a deployment.</source>
        <translation>在临时目录中于空闲的回环端口上启动 N 个 redis-server 进程，输出节点列表（host:port,... 在一行内，可直接用于 --nodes），并保持运行直到收到 SIGINT 或 SIGTERM；然后停止它们并删除该目录。若本进程被杀死，这些服务器也会退出。持久化已关闭：这是演示，不是部署。</translation>
    </message>
    <message>
        <source>redis-server not found on PATH (or set REDLOCK_REDIS_SERVER)</source>
        <translation>在 PATH 中找不到 redis-server（或设置 REDLOCK_REDIS_SERVER）</translation>
    </message>
    <message>
        <source>cannot install signal handlers: %1</source>
        <translation>无法安装信号处理程序：%1</translation>
    </message>
    <message>
        <source>cannot start the cluster: %1</source>
        <translation>无法启动集群：%1</translation>
    </message>
    <message>
        <source>%1 redis-server node(s) running in %2; Ctrl+C (SIGINT) or SIGTERM stops them</source>
        <translation>%1 个 redis-server 节点运行于 %2；按 Ctrl+C（SIGINT）或发送 SIGTERM 可停止它们</translation>
    </message>
    <message>
        <source>node %1 (%2) exited</source>
        <translation>节点 %1（%2）已退出</translation>
    </message>
    <message>
        <source>stopping the cluster</source>
        <translation>正在停止集群</translation>
    </message>
</context>
<context>
    <name>redlock::cli::CommandLine</name>
    <message>
        <source>Exit codes:
  0  success
  1  lock not acquired / not held / not released (the nodes answered)
  2  usage or configuration error (nothing was sent to any node)
  3  no quorum reachable: too many nodes timed out or refused the connection
  4  audit: at least one severe finding
  5  the result could not be written to stdout (acquire: the lock was released again)
</source>
        <translation>退出码：
  0  成功
  1  未获取 / 未持有 / 未释放锁（节点已应答）
  2  用法或配置错误（未向任何节点发送内容）
  3  无法达到法定人数：过多节点超时或拒绝连接
  4  审计：至少有一项严重发现
  5  结果无法写入标准输出（acquire：锁已被重新释放）
</translation>
    </message>
    <message>
        <source>Show this help.</source>
        <translation>显示此帮助。</translation>
    </message>
    <message>
        <source>Try &apos;%1 --help&apos;.</source>
        <translation>请尝试 &apos;%1 --help&apos;。</translation>
    </message>
    <message>
        <source>Usage: redlock %1</source>
        <translation>用法：redlock %1</translation>
    </message>
    <message>
        <source>--%1 is given %2 times: give it once (--nodes takes one comma-separated list)</source>
        <translation>--%1 给出了 %2 次：只能给出一次（--nodes 接受一个以逗号分隔的列表）</translation>
    </message>
    <message>
        <source>--%1 expects a whole number from %2 to %3, not &quot;%4&quot;</source>
        <translation>--%1 需要 %2 到 %3 之间的整数，而不是 &quot;%4&quot;</translation>
    </message>
    <message>
        <source>--%1 expects a number from %2 to %3, not &quot;%4&quot;</source>
        <translation>--%1 需要 %2 到 %3 之间的数字，而不是 &quot;%4&quot;</translation>
    </message>
    <message>
        <source>LIST</source>
        <translation>LIST</translation>
    </message>
    <message>
        <source>VAR</source>
        <translation>VAR</translation>
    </message>
    <message>
        <source>ACL user for every node that names none.</source>
        <translation>用于未指定用户的节点的 ACL 用户。</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>--nodes is required (e.g. --nodes 127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003)</source>
        <translation>必须给出 --nodes（例如 --nodes 127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003）</translation>
    </message>
    <message>
        <source>bad --nodes: %1</source>
        <translation>--nodes 有误：%1</translation>
    </message>
    <message>
        <source>environment variable %1 (from --password-env) is not set</source>
        <translation>环境变量 %1（来自 --password-env）未设置</translation>
    </message>
    <message>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>holder token</source>
        <translation>持有者令牌</translation>
    </message>
    <message>
        <source>PTTL ms</source>
        <translation>PTTL 毫秒</translation>
    </message>
    <message>
        <source>latency µs</source>
        <translation>延迟 微秒</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>acquire a lock on one or several resources</source>
        <translation>在一个或多个资源上获取锁</translation>
    </message>
    <message>
        <source>extend a lock you hold (by its token)</source>
        <translation>续期你持有的锁（凭其令牌）</translation>
    </message>
    <message>
        <source>release a lock (compare-and-delete by its token)</source>
        <translation>释放锁（凭其令牌比较并删除）</translation>
    </message>
    <message>
        <source>run a local redis-server cluster until Ctrl+C</source>
        <translation>运行一个本地 redis-server 集群，直到按下 Ctrl+C</translation>
    </message>
    <message>
        <source>measure acquire/release latency and throughput</source>
        <translation>测量获取/释放的延迟和吞吐量</translation>
    </message>
    <message>
        <source>show every lock merged over the nodes, with its verdict</source>
        <translation>显示在各节点上合并后的每个锁及其判定</translation>
    </message>
    <message>
        <source>print lock events live until Ctrl+C</source>
        <translation>实时输出锁事件，直到按下 Ctrl+C</translation>
    </message>
    <message>
        <source>check the nodes for what breaks Redlock</source>
        <translation>检查节点上破坏 Redlock 的因素</translation>
    </message>
    <message>
        <source>delete a stuck lock where it still holds TOKEN</source>
        <translation>在仍持有 TOKEN 的节点上删除卡住的锁</translation>
    </message>
    <message>
        <source>Usage: redlock &lt;command&gt; [options] ...

Redlock distributed locks over N independent Redis masters.

Commands:
</source>
        <translation>用法：redlock &lt;命令&gt; [选项] ...

基于 N 个独立 Redis 主节点的 Redlock 分布式锁。

命令：
</translation>
    </message>
    <message>
        <source>
&apos;redlock &lt;command&gt; --help&apos; describes a command&apos;s options.

</source>
        <translation>
&apos;redlock &lt;命令&gt; --help&apos; 说明该命令的选项。

</translation>
    </message>
    <message>
        <source>unknown command &quot;%1&quot;
</source>
        <translation>未知命令 &quot;%1&quot;
</translation>
    </message>
    <message>
        <source>cannot write the output: %1</source>
        <translation>无法写入输出：%1</translation>
    </message>
    <message>
        <source>serve the cluster&apos;s state to Prometheus (/metrics) until Ctrl+C</source>
        <translation>向 Prometheus 提供集群状态（/metrics），直到按下 Ctrl+C</translation>
    </message>
    <message>
        <source>who held a lock when, from the lock history journal</source>
        <translation>从锁历史日志查询谁在何时持有锁</translation>
    </message>
    <message>
        <source>--drift-factor: %1</source>
        <translation>--drift-factor：%1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <source>Connect to every TCP node over TLS (as rediss://).</source>
        <translation>通过 TLS 连接每个 TCP 节点（如同 rediss://）。</translation>
    </message>
    <message>
        <source>CA certificate(s) (PEM) to verify the nodes with, instead of the system store (default: $SSL_CERT_FILE when set).</source>
        <translation>用于验证节点的 CA 证书（PEM），代替系统证书库（默认：设置了 $SSL_CERT_FILE 时使用它）。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <source>Directory of CA certificates (PEM) to verify the nodes with (default: $SSL_CERT_DIR when set).</source>
        <translation>用于验证节点的 CA 证书（PEM）所在目录（默认：设置了 $SSL_CERT_DIR 时使用它）。</translation>
    </message>
    <message>
        <source>DIR</source>
        <translation>DIR</translation>
    </message>
    <message>
        <source>Client certificate (PEM) for nodes that require one (tls-auth-clients).</source>
        <translation>供要求客户端证书的节点（tls-auth-clients）使用的客户端证书（PEM）。</translation>
    </message>
    <message>
        <source>Private key (PEM) of --cert (default: in --cert&apos;s file).</source>
        <translation>--cert 的私钥（PEM）（默认：在 --cert 的文件中）。</translation>
    </message>
    <message>
        <source>Server name to send and verify the certificate against, for every TLS node (default: the host as given).</source>
        <translation>对每个 TLS 节点发送、并用于验证其证书的服务器名称（默认：所给出的主机名）。</translation>
    </message>
    <message>
        <source>Do not verify the nodes&apos; certificates at all: encrypted, but anyone in the path can pose as a node. For tests only; a warning says so.</source>
        <translation>完全不验证节点的证书：连接仍加密，但通信路径上的任何人都可以冒充节点。仅用于测试；会输出一条警告说明这一点。</translation>
    </message>
    <message>
        <source>--%1 needs TLS: add --tls or use rediss:// node URLs</source>
        <translation>--%1 需要 TLS：请添加 --tls 或使用 rediss:// 节点 URL</translation>
    </message>
    <message>
        <source>--key needs --cert</source>
        <translation>--key 需要 --cert</translation>
    </message>
    <message>
        <source>%1 is not a directory</source>
        <translation>%1 不是目录</translation>
    </message>
    <message>
        <source>cannot read %1</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <source>warning: --insecure: the nodes&apos; certificates are not verified; anyone in the path can pose as a node and see the traffic</source>
        <translation>警告：--insecure：不验证节点的证书；通信路径上的任何人都可以冒充节点并看到流量</translation>
    </message>
    <message>
        <source>run a command while holding a lock (flock for Redlock)</source>
        <translation>在持有锁期间运行一个命令（Redlock 版的 flock）</translation>
    </message>
    <message>
        <source>Comma-separated Redis masters: host:port, [v6]:port, redis://[user@]host:port/db, rediss://... (TLS), unix:/path. Duplicates are refused, and so is a password in a URL (use REDISCLI_AUTH or --password-env). -u is redis-cli&apos;s spelling.</source>
        <translation>以逗号分隔的 Redis 主节点：host:port、[v6]:port、redis://[user@]host:port/db、rediss://...（TLS）、unix:/path。重复的节点会被拒绝，URL 中带密码也会被拒绝（请使用 REDISCLI_AUTH 或 --password-env）。-u 是 redis-cli 的写法。</translation>
    </message>
    <message>
        <source>Instead of --nodes: the nodes&apos; host, or a comma-separated list of hosts that all listen on -p&apos;s port (default 127.0.0.1).</source>
        <translation>代替 --nodes：节点的主机，或以逗号分隔的主机列表，这些主机都监听 -p 给出的端口（默认 127.0.0.1）。</translation>
    </message>
    <message>
        <source>HOST</source>
        <translation>HOST</translation>
    </message>
    <message>
        <source>Instead of --nodes: the nodes&apos; port, or a comma-separated list of ports on -h&apos;s host (default 6379).</source>
        <translation>代替 --nodes：节点的端口，或 -h 所给主机上以逗号分隔的端口列表（默认 6379）。</translation>
    </message>
    <message>
        <source>PORT</source>
        <translation>PORT</translation>
    </message>
    <message>
        <source>Password of every node that names none. It shows in the process list and the shell history: prefer REDISCLI_AUTH or --password-env (a warning says so).</source>
        <translation>用于未指定密码的节点的密码。它会出现在进程列表和 shell 历史中：最好使用 REDISCLI_AUTH 或 --password-env（会输出一条警告说明这一点）。</translation>
    </message>
    <message>
        <source>PASSWORD</source>
        <translation>PASSWORD</translation>
    </message>
    <message>
        <source>No warning for -a (as in redis-cli).</source>
        <translation>使用 -a 时不输出警告（与 redis-cli 相同）。</translation>
    </message>
    <message>
        <source>Read the password of every node from environment variable VAR (never pass a password as an argument: it would show in the process list). Without -a and this option, REDISCLI_AUTH is read when set.</source>
        <translation>从环境变量 VAR 读取每个节点的密码（切勿把密码作为参数传递：它会出现在进程列表中）。既没有 -a 也没有此选项时，如果设置了 REDISCLI_AUTH，则读取它。</translation>
    </message>
    <message>
        <source>Database number for every node that names none (default 0).</source>
        <translation>用于未指定数据库的节点的数据库编号（默认 0）。</translation>
    </message>
    <message>
        <source>DB</source>
        <translation>DB</translation>
    </message>
    <message>
        <source>Reach every TCP node through this SSH jump host, with the system&apos;s ssh client (your ~/.ssh/config, ssh-agent and known_hosts; host keys checked strictly): [user@]host[:port], or a ProxyJump chain a,b. One tunnel carries every node; node addresses are as the last host resolves them.</source>
        <translation>通过此 SSH 跳板机访问每个 TCP 节点，使用系统的 ssh 客户端（沿用你的 ~/.ssh/config、ssh-agent 和 known_hosts；严格检查主机密钥）：[user@]host[:port]，或 ProxyJump 链 a,b。所有节点共用一条隧道；节点地址由最后一台主机解析。</translation>
    </message>
    <message>
        <source>ROUTE</source>
        <translation>ROUTE</translation>
    </message>
    <message>
        <source>ssh configuration file to use instead of ~/.ssh/config (ssh -F).</source>
        <translation>代替 ~/.ssh/config 使用的 ssh 配置文件（ssh -F）。</translation>
    </message>
    <message>
        <source>--ssh-config needs --ssh</source>
        <translation>--ssh-config 需要 --ssh</translation>
    </message>
    <message>
        <source>bad --ssh: %1</source>
        <translation>--ssh 无效：%1</translation>
    </message>
    <message>
        <source>--ssh: node %1 is a unix socket: it cannot be reached over SSH</source>
        <translation>--ssh：节点 %1 是 unix 套接字：无法通过 SSH 访问</translation>
    </message>
    <message>
        <source>--ssh: %1</source>
        <translation>--ssh：%1</translation>
    </message>
    <message>
        <source>%1 (its nodes are unreachable; restarting the tunnel)</source>
        <translation>%1（经由该隧道的节点不可达；正在重启隧道）</translation>
    </message>
    <message>
        <source>SSH tunnel through %1 is up again</source>
        <translation>经由 %1 的 SSH 隧道已恢复</translation>
    </message>
    <message>
        <source>-h and -p are both lists: give a list of hosts with one port, one host with a list of ports, or host:port pairs with --nodes</source>
        <translation>-h 和 -p 都是列表：请给出多个主机加一个端口、一个主机加多个端口，或用 --nodes 给出 host:port 对</translation>
    </message>
    <message>
        <source>bad -h/-p: &quot;%1&quot; port &quot;%2&quot;</source>
        <translation>-h/-p 无效：&quot;%1&quot; 端口 &quot;%2&quot;</translation>
    </message>
    <message>
        <source>name the nodes either with --nodes (-u) or with -h/-p, not both</source>
        <translation>请用 --nodes（-u）或 -h/-p 之一指定节点，不能同时使用两者</translation>
    </message>
    <message>
        <source>bad -h/-p: %1</source>
        <translation>-h/-p 无效：%1</translation>
    </message>
    <message>
        <source>bad --nodes: node %1 (%2) has a password in its URL, where the process list and the shell history show it: put it in REDISCLI_AUTH, or in an environment variable named with --password-env VAR</source>
        <translation>--nodes 有误：节点 %1（%2）的 URL 中带有密码，它会出现在进程列表和 shell 历史中：请把密码放入 REDISCLI_AUTH，或放入用 --password-env VAR 指定的环境变量</translation>
    </message>
    <message>
        <source>-a and --password-env both name a password: give one</source>
        <translation>-a 和 --password-env 都指定了密码：只能给出一个</translation>
    </message>
    <message>
        <source>Warning: Using a password with &apos;-a&apos; or &apos;-u&apos; option on the command line interface may not be safe. Set REDISCLI_AUTH or use --password-env instead.</source>
        <translation>警告：在命令行界面中通过 &apos;-a&apos; 或 &apos;-u&apos; 选项使用密码可能不安全。请设置 REDISCLI_AUTH 或改用 --password-env。</translation>
    </message>
</context>
<context>
    <name>redlock::cli::ExporterCommand</name>
    <message>
        <source>Address and port to serve /metrics on (default 127.0.0.1:9721: this machine only; 0.0.0.0:9721 every interface; port 0 any free port).</source>
        <translation>提供 /metrics 的地址和端口（默认 127.0.0.1:9721：仅本机；0.0.0.0:9721：所有网络接口；端口 0：任意空闲端口）。</translation>
    </message>
    <message>
        <source>ADDRESS:PORT</source>
        <translation>地址:端口</translation>
    </message>
    <message>
        <source>MS</source>
        <translation>MS</translation>
    </message>
    <message>
        <source>bad --listen: %1</source>
        <translation>--listen 无效：%1</translation>
    </message>
    <message>
        <source>cannot install signal handlers</source>
        <translation>无法安装信号处理程序</translation>
    </message>
    <message>
        <source>%1 is not a loopback address: whoever reaches it can read the metrics (lock counts, node names)</source>
        <translation>%1 不是回环地址：任何能访问它的人都可以读取这些指标（锁数量、节点名称）</translation>
    </message>
    <message>
        <source>Largest lock TTL in use, in ms, for the audit&apos;s restart rule (default %1); a larger PTTL seen on the nodes raises it.</source>
        <translation>正在使用的最大锁 TTL（毫秒），供审计的重启规则使用（默认 %1）；在节点上见到更大的 PTTL 时会随之提高。</translation>
    </message>
    <message>
        <source>Per-node timeout of each observing command, in ms (default 1000 for the per-second PING and TIME and the INFO, 2000 for the lock reads): for nodes far away. A node that does not answer within it counts as down until it does.</source>
        <translation>每条观测命令在每个节点上的超时，单位毫秒（每秒一次的 PING、TIME 以及 INFO 默认 1000，读取锁默认 2000）：用于距离较远的节点。在此时间内未应答的节点被视为离线，直到它再次应答。</translation>
    </message>
    <message>
        <source>Also export one series per lock key (redlock_lock_holders{key,verdict}): one series per key, up to --max-series.</source>
        <translation>同时为每个锁键导出一个序列（redlock_lock_holders{key,verdict}）：每个键一个序列，最多 --max-series 个。</translation>
    </message>
    <message>
        <source>With --key-labels, the most per-key series a scrape exports (default %1): past it the keys after the first N in key order are left out, redlock_key_series_dropped says how many, and a warning is printed once.</source>
        <translation>使用 --key-labels 时，每次抓取最多导出的按键序列数（默认 %1）：超出时，按键顺序排在前 N 个之后的键被略去，redlock_key_series_dropped 给出略去的数量，并输出一次警告。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>more lock keys than --max-series %1: only the first %1 in key order get a per-key series, redlock_key_series_dropped counts the others</source>
        <translation>锁键数多于 --max-series %1：只有按键顺序排在前 %1 个的键获得按键序列，redlock_key_series_dropped 统计其余的键</translation>
    </message>
    <message>
        <source>TLS and basic auth for the scrapes, in the format of Prometheus&apos;s exporters (exporter-toolkit): tls_server_config (cert_file, key_file, client_ca_file, client_auth_type, min_version) serves HTTPS only; basic_auth_users (user: bcrypt hash) asks every request for a user&apos;s password. Read once at start.</source>
        <translation>用于抓取的 TLS 和基本认证（basic auth），格式与 Prometheus 各 exporter 相同（exporter-toolkit）：tls_server_config（cert_file、key_file、client_ca_file、client_auth_type、min_version）使其只提供 HTTPS；basic_auth_users（user: bcrypt 哈希）要求每个请求提供用户的密码。仅在启动时读取一次。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <source>Serve the cluster&apos;s state on http://ADDRESS:PORT/metrics in the Prometheus text format until Ctrl+C: locks by verdict; per node up, latency, clock offset, restarts and what observing costs it; audit findings by rule and severity; lock age, remaining validity and hold duration histograms; lock event counters (contention: contested, token-changed). It watches like `watch` (keyspace events where the nodes send them, a background rescan within --budget) and adds one PING and TIME per second and one INFO per 5 s per node; a scrape is answered from memory and never waits for a node. Labels name nodes as host:port, never users, passwords or lock values; lock keys only with --key-labels. With --journal it also keeps the lock history (`redlock history` reads it) for as long as it runs; the journal is written on a thread of its own and never delays a scrape.</source>
        <translation>以 Prometheus 文本格式在 http://地址:端口/metrics 上提供集群状态，直到按下 Ctrl+C：按判定分类的锁；每个节点的在线状态、延迟、时钟偏移、重启次数以及观测给它带来的开销；按规则和严重程度分类的审计发现；锁存在时长、剩余有效期和持有时长的直方图；锁事件计数器（争用：contested、token-changed）。它的监视方式与 `watch` 相同（在节点发送键空间事件时使用这些事件，并在 --budget 之内进行后台重新扫描），另外每个节点每秒一次 PING 和 TIME、每 5 秒一次 INFO；抓取直接从内存应答，从不等待节点。标签以 host:port 标识节点，绝不包含用户、密码或锁的值；只有使用 --key-labels 时才包含锁键。使用 --journal 时，它在运行期间还会保留锁历史（由 `redlock history` 读取）；日志在单独的线程上写入，从不拖慢抓取。</translation>
    </message>
    <message>
        <source>Exit codes:
  0  stopped by SIGINT or SIGTERM
  2  usage error, --listen bad or busy, or --web.config.file unreadable or refused: nothing was sent to any node
</source>
        <translation>退出码：
  0  被 SIGINT 或 SIGTERM 停止
  2  用法错误、--listen 无效或已被占用，或 --web.config.file 无法读取或被拒绝：未向任何节点发送内容
</translation>
    </message>
    <message>
        <source>bad --web.config.file: %1</source>
        <translation>--web.config.file 无效：%1</translation>
    </message>
    <message>
        <source>serving %1://%2/metrics</source>
        <translation>正在 %1://%2/metrics 上提供服务</translation>
    </message>
    <message numerus="yes">
        <source>basic auth for %n user(s)</source>
        <translation>
            <numerusform>已为 %n 个用户启用基本认证</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redlock::cli::HistoryCommand</name>
    <message>
        <source>Lock key or glob (*, ?, [a-z]); default * (every key).</source>
        <translation>锁键或通配符（*、?、[a-z]）；默认 *（所有键）。</translation>
    </message>
    <message>
        <source>From this time (default -24h): ISO 8601 such as 2026-11-23T14:03 (local time) or 2026-11-23T14:03:00Z, or relative: -90s, -30m, -1h, -2d, -1w.</source>
        <translation>从此时间起（默认 -24h）：ISO 8601，如 2026-11-23T14:03（本地时间）或 2026-11-23T14:03:00Z，或相对时间：-90s、-30m、-1h、-2d、-1w。</translation>
    </message>
    <message>
        <source>TIME</source>
        <translation>TIME</translation>
    </message>
    <message>
        <source>Up to this time (default now), written as for --since. --since and --until the same instant: who held the key at that instant.</source>
        <translation>截至此时间（默认现在），写法同 --since。--since 与 --until 为同一时刻时：查询该时刻谁持有该键。</translation>
    </message>
    <message>
        <source>Only holders whose summary or token contains this text (any case).</source>
        <translation>只显示摘要或令牌包含此文本（不区分大小写）的持有者。</translation>
    </message>
    <message>
        <source>TEXT</source>
        <translation>TEXT</translation>
    </message>
    <message>
        <source>At most this many intervals (default 1000).</source>
        <translation>最多这么多个持有区间（默认 1000）。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Also list every journaled event in the range.</source>
        <translation>同时列出该范围内记录的每个事件。</translation>
    </message>
    <message>
        <source>Print JSON instead of text.</source>
        <translation>输出 JSON 而不是文本。</translation>
    </message>
    <message>
        <source>history takes one KEY (a glob matches several)</source>
        <translation>history 只接受一个 KEY（通配符可匹配多个）</translation>
    </message>
    <message>
        <source>--%1: &quot;%2&quot; is no time: write ISO 8601 (2026-11-23T14:03, 2026-11-23T14:03:00Z) or relative (-30m, -1h, -2d)</source>
        <translation>--%1：&quot;%2&quot; 不是时间：请写 ISO 8601（2026-11-23T14:03、2026-11-23T14:03:00Z）或相对时间（-30m、-1h、-2d）</translation>
    </message>
    <message>
        <source>--until is before --since</source>
        <translation>--until 早于 --since</translation>
    </message>
    <message>
        <source>No holder of %1 between %2 and %3 in %4.</source>
        <translation>%4 中在 %2 与 %3 之间没有 %1 的持有者。</translation>
    </message>
    <message>
        <source>KEY</source>
        <translation>键</translation>
    </message>
    <message>
        <source>HOLDER</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>FROM</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>TO</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>HELD</source>
        <translation>持有时长</translation>
    </message>
    <message>
        <source>ENDED</source>
        <translation>结束方式</translation>
    </message>
    <message>
        <source>EXTENDED</source>
        <translation>续期次数</translation>
    </message>
    <message>
        <source>more than %1 matched; the first %1 are shown (--limit)</source>
        <translation>匹配超过 %1 个；只显示前 %1 个（--limit）</translation>
    </message>
    <message>
        <source>at least since %1</source>
        <translation>至少自 %1 起</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>--%1: %2</source>
        <translation>--%1：%2</translation>
    </message>
    <message>
        <source>--journal needs a file name</source>
        <translation>--journal 需要一个文件名</translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation>在 %1 与 %2 之间</translation>
    </message>
    <message>
        <source>  (not observed: between %1 and %2)</source>
        <translation>  （未观测到：在 %1 与 %2 之间）</translation>
    </message>
    <message>
        <source>Who held a lock when: every holder&apos;s interval (from the moment its token was seen on a quorum to the moment it was not), how it ended (released, expired, taken over, lost on a node restart, force-released, observation ended, or ended while not watched) and how often it was extended, from the lock history journal that the console, `redlock watch --journal FILE` and `redlock exporter --journal FILE` write. Intervals that overlap the time range are listed; &quot;still held&quot; means held when last observed. A holder that already held the lock when watching started is shown &quot;at least since&quot; the moment it was first seen (JSON: &quot;atLeastSince&quot;: true): when it acquired the lock is not known. A holder seen again by the next watch keeps one interval; one that was gone by then &quot;ended while not watched&quot;, after the time shown. The spans when no writer watched (a console closed, a watch or exporter stopped, restarted or killed) are listed as &quot;not watched&quot; (JSON: &quot;unwatched&quot;): what happened then is not in the journal.

The console&apos;s journal: %1</source>
        <translation>谁在何时持有锁：每个持有者的持有区间（从其令牌在法定人数的节点上被看到的时刻，到不再被看到的时刻）、结束方式（释放、过期、被接管、因节点重启而丢失、强制释放、观察结束，或在未监视期间结束）以及续期次数，数据来自控制台、`redlock watch --journal FILE` 和 `redlock exporter --journal FILE` 写入的锁历史日志。列出与时间范围有重叠的区间；“仍被持有”表示最后一次观测时仍被持有。监视开始时已持有该锁的持有者显示为“至少自 X 起”，X 为首次看到它的时刻（JSON：&quot;atLeastSince&quot;: true）：其获取锁的时间未知。下一次监视再次看到的持有者保持同一个区间；届时已不在的持有者记为“在未监视期间结束”，结束时间在所示时间之后。没有写入者在监视的时段（控制台已关闭，watch 或 exporter 已停止、重启或被杀死）列为“未监视”（JSON：&quot;unwatched&quot;）：这期间发生的事不在日志中。

控制台的日志：%1</translation>
    </message>
    <message>
        <source>not watched since %1 (%2 stopped or died; no writer since)</source>
        <translation>自 %1 起未监视（%2 已停止或意外终止；此后没有写入者）</translation>
    </message>
    <message>
        <source>not watched from %1 to %2 (%3; %4 stopped or died): what happened then is not in the journal</source>
        <translation>从 %1 到 %2 未监视（%3；%4 已停止或意外终止）：这期间发生的事不在日志中</translation>
    </message>
    <message>
        <source>The journal to read (default: the console&apos;s, named below): a file, or a shared history in PostgreSQL, postgresql://user@host[:port]/database (the password from PGPASSWORD or ~/.pgpass, never in the URL).</source>
        <translation>要读取的日志（默认：控制台的日志，见下文）：一个文件，或 PostgreSQL 中的共享历史 postgresql://user@host[:port]/database（密码来自 PGPASSWORD 或 ~/.pgpass，绝不写在 URL 中）。</translation>
    </message>
    <message>
        <source>FILE|URL</source>
        <translation>FILE|URL</translation>
    </message>
    <message>
        <source>--import FILE goes into a shared history: --journal postgresql://user@host[:port]/database, and no KEY</source>
        <translation>--import FILE 的目标是共享历史：需要 --journal postgresql://user@host[:port]/database，且不带 KEY</translation>
    </message>
    <message>
        <source>Imported %1 into %2: %3 holder intervals, %4 events, %5 writer sessions; already there: %6 intervals, %7 events, %8 sessions.</source>
        <translation>已将 %1 导入 %2：%3 个持有区间、%4 个事件、%5 个写入会话；已存在：%6 个区间、%7 个事件、%8 个会话。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>FILE</translation>
    </message>
    <message>
        <source>SEEN BY</source>
        <translation>观察者</translation>
    </message>
    <message>
        <source>--%1 selects what history reads; --import copies the whole journal and takes no query options</source>
        <translation>--%1 用于选择 history 读取的内容；--import 复制整个日志，不接受查询选项</translation>
    </message>
    <message>
        <source>Instead of reading: copy this SQLite journal (the console&apos;s, or one `redlock watch` or `redlock exporter` wrote) into the shared history that --journal postgresql://... names, every holder, event, writer and span nobody watched at its own time. Importing it again adds only what is new; a file that is no journal, or a failure part-way, writes nothing. Takes none of the query options (KEY, --since, --until, --holder, --limit, --events). Stop the journal&apos;s writer first.</source>
        <translation>不读取，而是将此 SQLite 日志（控制台的，或 `redlock watch`、`redlock exporter` 写入的）复制到 --journal postgresql://... 指定的共享历史中，包括每个持有者、事件、写入者和无人监视的时段，各保留其原本时间。再次导入只会添加新内容；不是日志的文件或中途失败都不会写入任何内容。不接受任何查询选项（KEY、--since、--until、--holder、--limit、--events）。请先停止该日志的写入者。</translation>
    </message>
</context>
<context>
    <name>redlock::cli::LockCommands</name>
    <message>
        <source>New time to live in milliseconds (default 10000).</source>
        <translation>新的生存时间，单位毫秒（默认 10000）。</translation>
    </message>
    <message>
        <source>Time to live in milliseconds (default 10000).</source>
        <translation>生存时间，单位毫秒（默认 10000）。</translation>
    </message>
    <message>
        <source>MS</source>
        <translation>MS</translation>
    </message>
    <message>
        <source>Clock drift allowance: drift = ttl * F + 2 ms (default 0.01).</source>
        <translation>时钟漂移余量：漂移 = ttl * F + 2 毫秒（默认 0.01）。</translation>
    </message>
    <message>
        <source>F</source>
        <translation>F</translation>
    </message>
    <message>
        <source>Per-node timeout in milliseconds, small against the TTL (default 50). It includes connecting, since a CLI process starts without connections.</source>
        <translation>每个节点的超时，单位毫秒，应远小于 TTL（默认 50）。其中包括建立连接，因为 CLI 进程启动时没有任何连接。</translation>
    </message>
    <message>
        <source>Name written into the lock token and CLIENT SETNAME (default: redlock-cli).</source>
        <translation>写入锁令牌和 CLIENT SETNAME 的名称（默认：redlock-cli）。</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>Print one JSON object instead of text.</source>
        <translation>输出一个 JSON 对象而不是文本。</translation>
    </message>
    <message>
        <source>Read-only mode: the client refuses to write, nothing is sent to the nodes (exit code 2).</source>
        <translation>只读模式：客户端拒绝写入，不向节点发送任何内容（退出码 2）。</translation>
    </message>
    <message>
        <source>name at least one resource (the lock key)</source>
        <translation>请至少指定一个资源（锁键）</translation>
    </message>
    <message>
        <source>a resource name cannot be empty</source>
        <translation>资源名不能为空</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation>配置错误：%1</translation>
    </message>
    <message>
        <source>The lock&apos;s token, as printed by &apos;redlock acquire&apos; (the whole value stored in the keys).</source>
        <translation>锁的令牌，即 &apos;redlock acquire&apos; 输出的内容（键中存储的完整值）。</translation>
    </message>
    <message>
        <source>token: %1</source>
        <translation>令牌：%1</translation>
    </message>
    <message>
        <source>fencing token: %1</source>
        <translation>防护令牌：%1</translation>
    </message>
    <message>
        <source>not acquired %1: %2</source>
        <translation>未获取 %1：%2</translation>
    </message>
    <message>
        <source>attempt %1: %2 of %3 nodes in %4 µs</source>
        <translation>第 %1 次尝试：%3 个节点中的 %2 个，耗时 %4 微秒</translation>
    </message>
    <message>
        <source>fencing token write-back:</source>
        <translation>防护令牌回写：</translation>
    </message>
    <message>
        <source>Attempts after the first (default 3).</source>
        <translation>首次之后的尝试次数（默认 3）。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Base wait between attempts in ms (default 200).</source>
        <translation>两次尝试之间的基础等待时间，单位毫秒（默认 200）。</translation>
    </message>
    <message>
        <source>Random extra wait of 0..MS between attempts (default 100).</source>
        <translation>两次尝试之间额外的随机等待 0..MS 毫秒（默认 100）。</translation>
    </message>
    <message>
        <source>Also issue a fencing token that strictly increases across acquisitions of the resource(s) while a majority of nodes keep their data.</source>
        <translation>同时签发一个防护令牌：只要多数节点保留其数据，它在该资源的每次获取之间严格递增。</translation>
    </message>
    <message>
        <source>Lock key(s). Several resources make one lock over all of them (all or nothing on each node).</source>
        <translation>锁键。多个资源组成覆盖全部资源的一个锁（在每个节点上全有或全无）。</translation>
    </message>
    <message>
        <source>RESOURCE...</source>
        <translation>RESOURCE...</translation>
    </message>
    <message>
        <source>acquire [options] --nodes LIST RESOURCE...</source>
        <translation>acquire [选项] --nodes LIST RESOURCE...</translation>
    </message>
    <message>
        <source>Acquire a Redlock lock: the same random token is set with NX PX on all nodes at once; the lock is held when a quorum (N/2+1) set it and validity (ttl - elapsed - drift) is left. A failed attempt is undone on all nodes. Prints the token that extend and release need.</source>
        <translation>获取 Redlock 锁：同时在所有节点上以 NX PX 写入同一个随机令牌；当法定人数（N/2+1）个节点写入成功且仍有剩余有效期（ttl - 耗时 - 漂移）时即持有该锁。失败的尝试会在所有节点上撤销。输出续期和释放所需的令牌。</translation>
    </message>
    <message>
        <source>the client stopped without a result</source>
        <translation>客户端在得出结果之前已停止</translation>
    </message>
    <message>
        <source>the token could not be written to stdout (%1): the lock was released again on %2 of %3 nodes</source>
        <translation>令牌无法写入标准输出（%1）：锁已在 %3 个节点中的 %2 个上重新释放</translation>
    </message>
    <message>
        <source>TOKEN</source>
        <translation>TOKEN</translation>
    </message>
    <message>
        <source>The lock&apos;s current validity deadline in ms since the epoch (validUntilEpochMs of acquire&apos;s or extend&apos;s JSON output). When given, the extension is refused or reported lost if it cannot land before that moment.</source>
        <translation>锁当前的有效期截止时间，自纪元起的毫秒数（acquire 或 extend 的 JSON 输出中的 validUntilEpochMs）。给出时，若续期无法在该时刻之前完成，则会被拒绝或报告为锁已丢失。</translation>
    </message>
    <message>
        <source>EPOCH_MS</source>
        <translation>EPOCH_MS</translation>
    </message>
    <message>
        <source>The lock&apos;s key(s), in the order given to acquire.</source>
        <translation>锁的键，顺序与 acquire 时相同。</translation>
    </message>
    <message>
        <source>Extend a lock: compare-and-pexpire on all nodes; only keys that still hold the token are renewed, and the extension succeeds only if a quorum renewed it.

The process that acquired the lock has exited, so this command cannot know how much of the lock&apos;s validity is left. Without --valid-until it trusts you that the lock is still valid: success means a quorum of nodes still held the token when it was renewed, not that the lock never lapsed in between (another client may have held it meanwhile if it had expired). The new validity is measured from the start of the extend round: ttl - elapsed - drift.</source>
        <translation>续期锁：在所有节点上比较并设置过期时间；只有仍持有该令牌的键会被续期，且只有法定人数的节点续期成功时续期才算成功。

获取该锁的进程已经退出，因此本命令无法知道锁还剩多少有效期。不给出 --valid-until 时，本命令相信锁仍然有效：成功表示续期时法定人数的节点仍持有该令牌，而不是锁在此期间从未失效（如果锁曾过期，其他客户端可能在此期间持有过它）。新的有效期从续期这一轮开始时计算：ttl - 耗时 - 漂移。</translation>
    </message>
    <message>
        <source>Release a lock: compare-and-delete on all nodes; a key is deleted only if it still holds the token, so a lock that expired and was taken by someone else is never removed. Succeeds when a quorum of nodes held and released the token.</source>
        <translation>释放锁：在所有节点上比较并删除；只有仍持有该令牌的键才会被删除，因此已过期并被他人获取的锁绝不会被移除。当法定人数的节点持有并释放了该令牌时即为成功。</translation>
    </message>
    <message>
        <source>extend [options] --nodes LIST --token TOKEN RESOURCE...</source>
        <translation>extend [选项] --nodes LIST --token TOKEN RESOURCE...</translation>
    </message>
    <message>
        <source>release [options] --nodes LIST --token TOKEN RESOURCE...</source>
        <translation>release [选项] --nodes LIST --token TOKEN RESOURCE...</translation>
    </message>
    <message>
        <source>--token is required</source>
        <translation>必须给出 --token</translation>
    </message>
    <message>
        <source>released %1 on %2 of %3 nodes (quorum %4)</source>
        <translation>已释放 %1：%3 个节点中的 %2 个（法定人数 %4）</translation>
    </message>
    <message>
        <source>not extended %1: %2</source>
        <translation>未续期 %1：%2</translation>
    </message>
    <message>
        <source>not released %1: %2</source>
        <translation>未释放 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>; %n more had not answered when it was decided</source>
        <translation>
            <numerusform>；做出判定时另有 %n 个节点尚未应答</numerusform>
        </translation>
    </message>
    <message>
        <source>warning: the output after %1 could not be written: %2</source>
        <translation>警告：%1 之后的输出无法写入：%2</translation>
    </message>
    <message>
        <source>acquired %1 on %2 of %3 nodes (quorum %4%5): validity %6 ms</source>
        <translation>已获取 %1：%3 个节点中的 %2 个（法定人数 %4%5）：有效期 %6 毫秒</translation>
    </message>
    <message>
        <source>The text output starts with the result line and the &quot;token:&quot; line, each written and flushed before the rest: once the token line is written the lock is the caller&apos;s, even when the rest cannot be (`| head -2` and `| grep -m1 token:` keep the lock, exit 0). If the token line itself cannot be written (`&gt; /dev/full`, a reader gone before it), nobody has the token: the lock is released again (exit 5). --json is one object: the lock is kept only when all of it was written.</source>
        <translation>文本输出以结果行和“token:”行开头，二者都先于其余内容写出并刷新：令牌行一旦写出，锁就归调用者所有，即使其余内容无法写出（`| head -2` 和 `| grep -m1 token:` 会保留锁，退出码 0）。如果令牌行本身无法写出（`&gt; /dev/full`，或读取方在此之前已退出），就没有人拿到令牌：锁会被重新释放（退出码 5）。--json 输出一个对象：只有整个对象都已写出时才保留锁。</translation>
    </message>
    <message>
        <source>the token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>extended %1 on %2 of %3 nodes (quorum %4%5): validity %6 ms</source>
        <translation>已续期 %1：%3 个节点中的 %2 个（法定人数 %4%5）：有效期 %6 毫秒</translation>
    </message>
    <message>
        <source>the result line</source>
        <translation>结果行</translation>
    </message>
    <message>
        <source>node-redlock&apos;s jitter: wait --retry-delay ± MS between attempts (instead of --jitter; MS at most --retry-delay).</source>
        <translation>node-redlock 的抖动方式：两次尝试之间等待 --retry-delay ± MS（代替 --jitter；MS 不超过 --retry-delay）。</translation>
    </message>
    <message>
        <source>--jitter and --retryJitter both set the jitter: give one</source>
        <translation>--jitter 和 --retryJitter 都设置了抖动：只能给出一个</translation>
    </message>
</context>
<context>
    <name>redlock::cli::ObserveCommands</name>
    <message>
        <source>GLOB</source>
        <translation>GLOB</translation>
    </message>
    <message>
        <source>SCAN COUNT per call (default 1000).</source>
        <translation>每次调用的 SCAN COUNT（默认 1000）。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Clock drift allowance: drift = ttl * F + 2 ms (default 0.01).</source>
        <translation>时钟漂移余量：漂移 = ttl * F + 2 毫秒（默认 0.01）。</translation>
    </message>
    <message>
        <source>F</source>
        <translation>F</translation>
    </message>
    <message>
        <source>A held lock with less observed validity than this is &quot;expiring&quot; (default 1000).</source>
        <translation>观察到的有效期少于此值的已持有锁为“即将过期”（默认 1000）。</translation>
    </message>
    <message>
        <source>MS</source>
        <translation>MS</translation>
    </message>
    <message>
        <source>Print JSON instead of text.</source>
        <translation>输出 JSON 而不是文本。</translation>
    </message>
    <message>
        <source>--pattern cannot be empty (it would match no key; * matches every key)</source>
        <translation>--pattern 不能为空（它不会匹配任何键；* 匹配所有键）</translation>
    </message>
    <message>
        <source>KEY</source>
        <translation>键</translation>
    </message>
    <message>
        <source>VERDICT</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>HOLDERS</source>
        <translation>持有节点</translation>
    </message>
    <message>
        <source>VALIDITY</source>
        <translation>有效期</translation>
    </message>
    <message>
        <source>HOLDER</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <source>no permission</source>
        <translation>无权限</translation>
    </message>
    <message>
        <source>not a lock</source>
        <translation>不是锁</translation>
    </message>
    <message>
        <source>no expiry</source>
        <translation>无过期时间</translation>
    </message>
    <message>
        <source>other %1</source>
        <translation>其他令牌 %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n key(s) not read: %2</source>
        <translation>
            <numerusform>%1：%n 个键未读取：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot install signal handlers</source>
        <translation>无法安装信号处理程序</translation>
    </message>
    <message>
        <source>(restarted without it: %1)</source>
        <translation>（重启后未启用：%1）</translation>
    </message>
    <message>
        <source>%1: restarted (new run_id): the locks it held are gone unless it persisted them</source>
        <translation>%1：已重启（新的 run_id）：它持有的锁已丢失，除非它持久化了这些锁</translation>
    </message>
    <message>
        <source>%1: reachable again</source>
        <translation>%1：已恢复可达</translation>
    </message>
    <message>
        <source>%1: unreachable</source>
        <translation>%1：不可达</translation>
    </message>
    <message>
        <source>%1: unreachable (%2)</source>
        <translation>%1：不可达（%2）</translation>
    </message>
    <message>
        <source>no node reachable: no lock events can be seen</source>
        <translation>没有可达的节点：无法看到任何锁事件</translation>
    </message>
    <message>
        <source>only %1 of %2 nodes reachable (quorum %3): locks read as unknown</source>
        <translation>%2 个节点中只有 %1 个可达（法定人数 %3）：锁显示为未知</translation>
    </message>
    <message>
        <source>a quorum of nodes is reachable again (%1 of %2)</source>
        <translation>法定人数的节点已恢复可达（%2 个中的 %1 个）</translation>
    </message>
    <message>
        <source>Check the nodes against what breaks Redlock: replicas, persistence and early restarts, eviction, clock offset, the same server listed twice, N even or below 3. Exit code %1 when a finding is severe.</source>
        <translation>检查节点上破坏 Redlock 的因素：副本、持久化与过早重启、淘汰策略、时钟偏差、同一服务器被列出两次、N 为偶数或小于 3。存在严重发现时退出码为 %1。</translation>
    </message>
    <message numerus="yes">
        <source>No findings: %n node(s) checked, max TTL %1 ms.</source>
        <translation>
            <numerusform>没有发现：已检查 %n 个节点，最大 TTL %1 毫秒。</numerusform>
        </translation>
    </message>
    <message>
        <source>only %1 of %2 nodes reachable, quorum %3: the cluster cannot grant locks</source>
        <translation>%2 个节点中只有 %1 个可达，法定人数 %3：集群无法授予锁</translation>
    </message>
    <message>
        <source>Pause between two background rescans, in ms (default 5000).</source>
        <translation>两次后台重新扫描之间的间隔，单位毫秒（默认 5000）。</translation>
    </message>
    <message>
        <source>Commands per second the background rescan may send each node (default %1; 0 = no limit, a full SCAN at full speed).</source>
        <translation>后台重新扫描每秒可向每个节点发送的命令数（默认 %1；0 = 不限制，全速执行完整 SCAN）。</translation>
    </message>
    <message>
        <source>the background rescan (%1 commands/s)</source>
        <translation>后台重新扫描（每秒 %1 条命令）</translation>
    </message>
    <message>
        <source>the background rescan (no budget)</source>
        <translation>后台重新扫描（无预算限制）</translation>
    </message>
    <message>
        <source>%1: keyspace events: changes show live</source>
        <translation>%1：键空间事件：变化实时显示</translation>
    </message>
    <message>
        <source>%1: no keyspace events (%2): changes show only through %3</source>
        <translation>%1：没有键空间事件（%2）：变化只能通过%3显示</translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s) on %1 of %2 nodes in %3 ms; %4 key(s) skipped (no TTL, other type, helpers).</source>
        <translation>
            <numerusform>%n 个锁，位于 %2 个节点中的 %1 个，用时 %3 毫秒；跳过了 %4 个键（无 TTL、其他类型、辅助键）。</numerusform>
        </translation>
    </message>
    <message>
        <source>(more than %1 locks: listed in the order found, not sorted)</source>
        <translation>（超过 %1 个锁：按发现的顺序列出，未排序）</translation>
    </message>
    <message>
        <source>free in %1 ms</source>
        <translation>%1 毫秒后可用</translation>
    </message>
    <message>
        <source>--alert %1: expected RULE=MS, RULE=off or clear=MS, RULE one of %2</source>
        <translation>--alert %1：应为 RULE=MS、RULE=off 或 clear=MS，RULE 为以下之一：%2</translation>
    </message>
    <message>
        <source>ALERT</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>CLEARED</source>
        <translation>已清除</translation>
    </message>
    <message>
        <source>Alert thresholds, comma-separated: RULE=MS (raised once the condition lasted MS) or RULE=off; clear=MS: how long a condition must be gone before its alert clears (default 5000). Rules: lock-held, lock-contested, minority-leftover, quorum-lost, node-down, severe-finding, clock-offset.</source>
        <translation>告警阈值，以逗号分隔：RULE=MS（条件持续 MS 毫秒后触发）或 RULE=off；clear=MS：条件消失多久后清除其告警（默认 5000）。规则：lock-held、lock-contested、minority-leftover、quorum-lost、node-down、severe-finding、clock-offset。</translation>
    </message>
    <message>
        <source>RULE=MS,...</source>
        <translation>RULE=MS,...</translation>
    </message>
    <message>
        <source>Print lock events only, no alerts.</source>
        <translation>只输出锁事件，不输出告警。</translation>
    </message>
    <message>
        <source>With --journal: prune what is older than this many days (default 30; 0 = keep).</source>
        <translation>与 --journal 一起使用：清理早于这么多天的记录（默认 30；0 = 保留）。</translation>
    </message>
    <message>
        <source>DAYS</source>
        <translation>DAYS</translation>
    </message>
    <message>
        <source>MB</source>
        <translation>MB</translation>
    </message>
    <message>
        <source>--journal needs a file name</source>
        <translation>--journal 需要一个文件名</translation>
    </message>
    <message>
        <source>the journal %1 did not take %2 event(s) (%3 dropped earlier): %4</source>
        <translation>日志 %1 未能接收 %2 个事件（此前已丢弃 %3 个）：%4</translation>
    </message>
    <message>
        <source>Largest lock TTL in use, in ms, for the drift budget of the clock-offset alert and the audit (default %1); a larger PTTL seen on the nodes raises it.</source>
        <translation>当前使用的最大锁 TTL（毫秒），用于时钟偏移告警和审计的漂移预算（默认 %1）；在节点上见到更大的 PTTL 时会随之提高。</translation>
    </message>
    <message>
        <source>Print lock events (acquired, extended, released, expired, token changed, contested, lost on a node restart) as they happen, until Ctrl+C; first, each lock already held when watching starts, as &quot;seen held&quot; (its acquisition was not seen: held at least since then). Live changes come from keyspace notifications where the nodes have them enabled (this command never enables them); a background rescan within a budget of commands per second per node catches the rest, and is the only source on nodes without them. Alerts (a lock held, contested or left over too long, a node down, quorum lost, a severe audit finding, a clock offset beyond the drift budget) are printed when raised and when cleared. A reader that has gone ends the watch at once, with exit code 5 (`watch --json | head -1` ends with head).</source>
        <translation>实时输出锁事件（获取、续期、释放、过期、令牌变更、争用、因节点重启而丢失），直到按下 Ctrl+C；开始时先输出监视开始时已被持有的每个锁，记为“发现已被持有”（未看到其获取：至少自那时起被持有）。在已启用键空间通知的节点上，变化通过该通知实时显示（本命令从不启用它）；在每个节点每秒命令数预算之内的后台重新扫描会捕获其余变化，并且是未启用该通知的节点上唯一的来源。告警（锁持有、争用或残留过久，节点离线，失去法定数量，严重审计发现，时钟偏移超出漂移预算）在触发和清除时输出。读取方一旦退出，监视即刻结束，退出码为 5（`watch --json | head -1` 随 head 一起结束）。</translation>
    </message>
    <message>
        <source>Largest lock TTL in use, in ms, for the restart rule and the drift budget (default %1); a larger PTTL seen on the nodes raises it.</source>
        <translation>使用中的最大锁 TTL，单位毫秒，用于重启规则和漂移预算（默认 %1）；在节点上见到更大的 PTTL 时会随之提高。</translation>
    </message>
    <message>
        <source>SCAN MATCH pattern of the lock keys (default *: then only values in a lock format this tool recognises count as locks; under any other pattern every value with a TTL does).</source>
        <translation>锁键的 SCAN MATCH 模式（默认 *：此时只有本工具能识别的锁格式的值才算作锁；使用其他任何模式时，该模式下每个带 TTL 的值都算作锁）。</translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) with a TTL passed over: not in a lock format this tool recognises (under the default pattern * only recognised lock values count; --pattern names your lock keys, and then every value with a TTL under it counts).</source>
        <translation>
            <numerusform>跳过了 %n 个带 TTL 的键：它们不是本工具能识别的锁格式（在默认模式 * 下只有能识别的锁值才算数；--pattern 用于指定你的锁键，此时该模式下每个带 TTL 的值都算数）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Find the lock keys on every node (SCAN, never KEYS) and show one merged view per lock: verdict, holder, observed validity and what each node holds. Output is streamed: up to %1 locks are sorted by key; past that, locks are written in the order the inspection finds them, and memory grows only by the names of the keys read (kept so that each is read once).

--json writes JSON Lines: one compact object per line. First one line per lock (&quot;type&quot;: &quot;lock&quot;; key, verdict, token, holders, quorum, validityMs, freeInMs (verdict released-by-operator only: ms until a newcomer can acquire, -1 unknown), format, holder, restsOn, noExpiryOn and noExpiryValue (only when some node holds a value without expiry, beside the verdict or as it: stuck), validityEnded (only when true), and nodes: per node its node, state, and value, pttlMs and note where they apply), then one summary line (&quot;type&quot;: &quot;summary&quot;; locks, sorted, nodesReachable, nodes, elapsedMs, skipped, errors). Keys, tokens and values are the printable form of their bytes: valid UTF-8 as is, and each byte of a control character, a line separator, a bidirectional override, an invalid sequence or a backslash as \xNN; replacing every \xNN by its byte gives the exact bytes back.

A reader that has gone (`inspect | head -3`) stops the scan at once: exit code 5.</source>
        <translation>在每个节点上查找锁键（使用 SCAN，绝不使用 KEYS），并为每个锁显示一个合并视图：判定、持有者、观测有效期以及每个节点持有的内容。输出以流式写出：最多 %1 个锁按键排序；超出后，锁按检查发现它们的顺序写出，内存只随已读取的键名增长（保留键名以保证每个键只读取一次）。

--json 输出 JSON Lines：每行一个紧凑的对象。先为每个锁输出一行（&quot;type&quot;: &quot;lock&quot;；key、verdict、token、holders、quorum、validityMs、freeInMs（仅当判定为 released-by-operator 时：距新来者可以获取还有多少毫秒，-1 表示未知）、format、holder、restsOn、noExpiryOn 和 noExpiryValue（仅当某个节点持有没有过期时间的值时，无论它与判定并存还是本身即为判定：stuck）、validityEnded（仅当为 true 时），以及 nodes：每个节点的 node、state，以及适用时的 value、pttlMs 和 note），然后输出一行摘要（&quot;type&quot;: &quot;summary&quot;；locks、sorted、nodesReachable、nodes、elapsedMs、skipped、errors）。键、令牌和值以其字节的可打印形式给出：有效的 UTF-8 原样输出，控制字符、行分隔符、双向覆盖字符、无效序列或反斜杠的每个字节写作 \xNN；把每个 \xNN 替换回对应字节即可得到原始的字节。

读取方一旦退出（`inspect | head -3`），扫描立即停止：退出码 5。</translation>
    </message>
    <message>
        <source>(not observed: between %1 and %2)</source>
        <translation>（未观测到：在 %1 与 %2 之间）</translation>
    </message>
    <message>
        <source>Also write every event to this lock history journal: a file (SQLite; `redlock history --journal FILE` reads it; `redlock history --help` names the console&apos;s) or a team&apos;s shared history in PostgreSQL, postgresql://user@host[:port]/database (the password from PGPASSWORD or ~/.pgpass, never in the URL).</source>
        <translation>同时将每个事件写入此锁历史日志：一个文件（SQLite；由 `redlock history --journal FILE` 读取；`redlock history --help` 会给出控制台日志的位置），或 PostgreSQL 中团队共享的历史 postgresql://user@host[:port]/database（密码来自 PGPASSWORD 或 ~/.pgpass，绝不写在 URL 中）。</translation>
    </message>
    <message>
        <source>FILE|URL</source>
        <translation>FILE|URL</translation>
    </message>
    <message>
        <source>With --journal: then prune the oldest until the journal holds at most this many MiB (default 256 for a file, no limit for PostgreSQL: a shared history is trimmed by size only where this is given; 0 = no limit).</source>
        <translation>配合 --journal：随后删除最旧的记录，直到日志最多占用这么多 MiB（文件默认 256；PostgreSQL 默认不限：共享历史只在给出此选项时按大小裁剪；0 = 不限）。</translation>
    </message>
</context>
<context>
    <name>redlock::cli::OperatorCommands</name>
    <message>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>found</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>PTTL ms</source>
        <translation>PTTL 毫秒</translation>
    </message>
    <message>
        <source>detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Type the key name to delete it where the token matches: </source>
        <translation>输入键名以在令牌匹配的节点上删除它：</translation>
    </message>
    <message>
        <source>TOKEN</source>
        <translation>TOKEN</translation>
    </message>
    <message>
        <source>Execute without asking (needed when stdin is not a terminal).</source>
        <translation>不询问直接执行（标准输入不是终端时必须给出）。</translation>
    </message>
    <message>
        <source>Print one JSON object instead of text.</source>
        <translation>输出一个 JSON 对象而不是文本。</translation>
    </message>
    <message>
        <source>Per-node timeout in milliseconds (default 2000).</source>
        <translation>每个节点的超时，单位毫秒（默认 2000）。</translation>
    </message>
    <message>
        <source>MS</source>
        <translation>MS</translation>
    </message>
    <message>
        <source>Why, for the audit log.</source>
        <translation>原因，写入审计日志。</translation>
    </message>
    <message>
        <source>TEXT</source>
        <translation>TEXT</translation>
    </message>
    <message>
        <source>Profile name written to the audit log (default: cli).</source>
        <translation>写入审计日志的配置名称（默认：cli）。</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>Audit log file (JSON lines; default: %1).</source>
        <translation>审计日志文件（JSON 行格式；默认：%1）。</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>PATH</translation>
    </message>
    <message>
        <source>The lock key.</source>
        <translation>锁键。</translation>
    </message>
    <message>
        <source>KEY</source>
        <translation>KEY</translation>
    </message>
    <message>
        <source>force-release [options] --nodes LIST --token TOKEN KEY</source>
        <translation>force-release [选项] --nodes LIST --token TOKEN KEY</translation>
    </message>
    <message>
        <source>name exactly one lock key</source>
        <translation>请只指定一个锁键</translation>
    </message>
    <message>
        <source>the lock key cannot be empty</source>
        <translation>锁键不能为空</translation>
    </message>
    <message>
        <source>--token is required: force release deletes only the token you saw</source>
        <translation>必须给出 --token：强制释放只删除你看到的令牌</translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation>配置错误：%1</translation>
    </message>
    <message>
        <source>preview of force release of &quot;%1&quot; with token %2:</source>
        <translation>以令牌 %2 强制释放 &quot;%1&quot; 的预览：</translation>
    </message>
    <message>
        <source>not confirmed: pass --yes to execute (or --dry-run for the preview only)</source>
        <translation>未确认：传入 --yes 以执行（或 --dry-run 仅预览）</translation>
    </message>
    <message>
        <source>deleted on %1 of %2 nodes:</source>
        <translation>已在 %2 个节点中的 %1 个上删除：</translation>
    </message>
    <message>
        <source>lock-delay ms</source>
        <translation>锁延迟（毫秒）</translation>
    </message>
    <message>
        <source>lock-delay 0: the key is deleted</source>
        <translation>锁延迟 0：该键被删除</translation>
    </message>
    <message>
        <source>lock-delay auto (remaining validity + drift): tombstones for up to %1 ms</source>
        <translation>锁延迟 auto（剩余有效期 + 漂移）：墓碑最长保留 %1 毫秒</translation>
    </message>
    <message>
        <source>lock-delay auto (remaining validity + drift)</source>
        <translation>锁延迟 auto（剩余有效期 + 漂移）</translation>
    </message>
    <message>
        <source>lock-delay %1 ms: tombstones for that long</source>
        <translation>锁延迟 %1 毫秒：墓碑保留这么久</translation>
    </message>
    <message>
        <source>free at once</source>
        <translation>立即可用</translation>
    </message>
    <message>
        <source>free now</source>
        <translation>现已可用</translation>
    </message>
    <message>
        <source>free at %1 (in %2 ms)</source>
        <translation>于 %1 可用（%2 毫秒后）</translation>
    </message>
    <message>
        <source>free: not by itself, or unknown (nodes without expiry or unreachable)</source>
        <translation>可用时间：不会自行可用，或未知（有节点没有过期时间或不可达）</translation>
    </message>
    <message>
        <source>Type the key name to release it with the lock-delay where the token matches: </source>
        <translation>输入键名以在令牌匹配的节点上以锁延迟释放它：</translation>
    </message>
    <message>
        <source>The token you saw on the lock (required): only keys that still hold it are released.</source>
        <translation>你在锁上看到的令牌（必需）：只有仍持有该令牌的键才会被释放。</translation>
    </message>
    <message>
        <source>MS|auto</source>
        <translation>MS|auto</translation>
    </message>
    <message>
        <source>F</source>
        <translation>F</translation>
    </message>
    <message>
        <source>Show what each node would do; change nothing.</source>
        <translation>显示每个节点将执行的操作；不做任何改动。</translation>
    </message>
    <message>
        <source>Refuse to change anything (the preview still runs).</source>
        <translation>拒绝做任何改动（预览仍会执行）。</translation>
    </message>
    <message>
        <source>--lock-delay takes &quot;auto&quot; or milliseconds from 0 to %1</source>
        <translation>--lock-delay 接受 &quot;auto&quot; 或 0 到 %1 之间的毫秒数</translation>
    </message>
    <message>
        <source>read-only mode: nothing changed</source>
        <translation>只读模式：未做任何改动</translation>
    </message>
    <message>
        <source>released with lock-delay on %1 of %2 nodes:</source>
        <translation>已在 %2 个节点中的 %1 个上以锁延迟释放：</translation>
    </message>
    <message>
        <source>error: the release ran, but its result could not be written to the audit log (the intent line is there): %1</source>
        <translation>错误：释放已执行，但其结果无法写入审计日志（意图记录已写入）：%1</translation>
    </message>
    <message>
        <source>lock-delay %1 ms, raised to up to %2 ms on %3 node(s) to cover the holder&apos;s remaining validity plus drift</source>
        <translation>锁延迟 %1 毫秒，在 %3 个节点上提高到最多 %2 毫秒，以覆盖持有者的剩余有效期加上漂移</translation>
    </message>
    <message>
        <source>How long the released lock stays unavailable: &quot;auto&quot; (the default) replaces the token with a tombstone for the key&apos;s remaining PTTL on each node plus the clock drift, so the old holder&apos;s validity ends before anyone else can acquire; MS gives the tombstone that many milliseconds, raised on a node where the key&apos;s remaining PTTL plus the drift is longer (so MS never ends the old holder&apos;s validity early; a key without expiry gets exactly MS); 0 deletes the key (free at once, even for a holder that is only paused).</source>
        <translation>被释放的锁保持不可用的时长：&quot;auto&quot;（默认）用墓碑替换令牌，其时长为每个节点上该键的剩余 PTTL 加上时钟漂移，使旧持有者的有效期在任何其他人能够获取之前结束；MS 让墓碑保留这么多毫秒，但在该键的剩余 PTTL 加上漂移更长的节点上会提高到该值（因此 MS 绝不会提前结束旧持有者的有效期；没有过期时间的键恰好使用 MS）；0 删除该键（立即可用，即使持有者只是暂停）。</translation>
    </message>
    <message>
        <source>Clock drift allowance for the lock-delay (auto, and the floor of MS): drift = PTTL * F + 2 ms (default 0.01).</source>
        <translation>锁延迟的时钟漂移余量（auto，以及 MS 的下限）：漂移 = PTTL * F + 2 毫秒（默认 0.01）。</translation>
    </message>
    <message numerus="yes">
        <source>not released everywhere: %n node(s) may still hold the token (unreachable, a Redis error, or no expiry): run force-release again once they answer</source>
        <translation>
            <numerusform>未在所有节点上释放：%n 个节点可能仍持有该令牌（不可达、Redis 错误或没有过期时间）：待它们应答后请再次运行 force-release</numerusform>
        </translation>
    </message>
    <message>
        <source>not freed: another token holds the lock on %1 of %2 nodes (quorum %3), %4: the lock is left to its holder</source>
        <translation>未释放：另一个令牌 %4 在 %2 个节点中的 %1 个上持有该锁（法定人数 %3）：锁留给其持有者</translation>
    </message>
    <message>
        <source>nothing to release: no node holds the token (the key is gone, or other tokens hold it on fewer than a quorum of nodes)</source>
        <translation>无可释放：没有节点持有该令牌（键已不存在，或其他令牌持有该键的节点少于法定人数）</translation>
    </message>
    <message>
        <source>nothing released: the token is there but could not be released (see the table: no expiry with --lock-delay auto, or a Redis error)</source>
        <translation>未释放任何节点：令牌仍在，但无法释放（见表格：在 --lock-delay auto 下没有过期时间，或 Redis 错误）</translation>
    </message>
    <message numerus="yes">
        <source>nothing released where nodes answered: %n node(s) did not answer and may still hold the token</source>
        <translation>
            <numerusform>已应答的节点上均未释放：%n 个节点未应答，可能仍持有该令牌</numerusform>
        </translation>
    </message>
    <message>
        <source>the token was released (tombstone or deleted) on every node that held it</source>
        <translation>在持有该令牌的每个节点上均已释放（墓碑或删除）</translation>
    </message>
    <message>
        <source>no node holds the token: the key is gone, or other tokens hold it on fewer than a quorum of nodes; nothing was changed</source>
        <translation>没有节点持有该令牌：键已不存在，或其他令牌持有该键的节点少于法定人数；未做任何改动</translation>
    </message>
    <message>
        <source>the token is there but was not released: it has no expiry and --lock-delay is auto (give MS), or the nodes answered with an error</source>
        <translation>令牌仍在但未被释放：它没有过期时间而 --lock-delay 为 auto（请给出 MS），或节点返回了错误</translation>
    </message>
    <message>
        <source>usage error, read-only, configuration, the audit intent could not be written, or not confirmed: nothing was changed</source>
        <translation>用法错误、只读、配置问题、审计意图无法写入，或未确认：未做任何改动</translation>
    </message>
    <message>
        <source>nothing released where nodes answered, and some did not answer (they may still hold the token)</source>
        <translation>已应答的节点上均未释放，且有节点未应答（它们可能仍持有该令牌）</translation>
    </message>
    <message>
        <source>the result could not be written to stdout</source>
        <translation>结果无法写入标准输出</translation>
    </message>
    <message>
        <source>another token holds the lock on a quorum of nodes (it changed hands since the preview, or the token given is not the holder&apos;s): left to its holder, not freed</source>
        <translation>另一个令牌在达到法定人数的节点上持有该锁（自预览以来锁已易主，或给出的令牌不是持有者的）：留给其持有者，未释放</translation>
    </message>
    <message>
        <source>released on some nodes; others may still hold the token (unreachable, a Redis error, no expiry): run it again once they answer</source>
        <translation>已在部分节点上释放；其他节点可能仍持有该令牌（不可达、Redis 错误、没有过期时间）：待它们应答后请再次运行</translation>
    </message>
    <message>
        <source>Outcomes (&quot;outcome&quot; in the JSON) and exit codes:</source>
        <translation>结果（JSON 中的 &quot;outcome&quot;）与退出码：</translation>
    </message>
    <message>
        <source>Force release a stuck lock safely: first a preview of what each node will do (release where the token still matches; skip where another token holds the key, the key is gone or is not a string lock; unreachable), how long the lock-delay lasts and when the lock is free, then a compare-and-set with that token on every node, never a bare DEL. With a lock-delay (the default) the token is replaced by a tombstone (rl1-released:&lt;user@host&gt;:&lt;unix-ms&gt;) that expires after the lock-delay: the old holder can no longer extend or release, and no client (node-redlock, Redsync, Redisson, this one) can acquire before the old holder&apos;s validity is over (a fixed MS is raised to that where needed; a lock without expiry stays blocked for MS). A lock that changed hands in between is left to its new holder. Every execution is appended to the audit log. Redisson hash locks are reported and left alone.

The outcome says what became of the lock as a whole (the table says what each node did); --dry-run has the outcome the release would have now. With --json, &quot;executed&quot; is true when at least one node was changed, and &quot;freeAt&quot;, &quot;freeInMs&quot; and &quot;tombstone&quot; are there only when the release frees the lock (released, released-partially).</source>
        <translation>安全地强制释放卡住的锁：先预览每个节点将执行的操作（令牌仍匹配时释放；其他令牌持有该键、键已不存在或不是字符串锁时跳过；不可达）、锁延迟持续多久以及该锁何时可用，然后在每个节点上以该令牌比较并设置，绝不直接 DEL。使用锁延迟（默认）时，令牌被替换为在锁延迟结束后过期的墓碑（rl1-released:&lt;user@host&gt;:&lt;unix-ms&gt;）：旧持有者无法再续期或释放，在旧持有者的有效期结束之前，任何客户端（node-redlock、Redsync、Redisson、本工具）都无法获取该锁（固定的 MS 会在需要时提高到该有效期；没有过期时间的锁在 MS 内保持被占用）。在此期间易主的锁留给其新持有者。每次执行都会追加到审计日志。Redisson 哈希锁会被报告并保持不动。

结果说明该锁整体的去向（表格说明每个节点做了什么）；--dry-run 给出的是此刻执行释放会得到的结果。使用 --json 时，只要至少有一个节点被改动，&quot;executed&quot; 即为 true；只有当释放使锁可用时（released、released-partially）才会给出 &quot;freeAt&quot;、&quot;freeInMs&quot; 和 &quot;tombstone&quot;。</translation>
    </message>
    <message>
        <source>nothing changed: the result could not be reported</source>
        <translation>未做任何改动：无法报告结果</translation>
    </message>
</context>
<context>
    <name>redlock::cli::RawHiredisBaseline</name>
    <message>
        <source>the raw baseline speaks plain TCP or unix sockets to database 0, without TLS or AUTH: %1</source>
        <translation>raw 基准客户端只通过普通 TCP 或 unix 套接字连接数据库 0，不支持 TLS 或 AUTH：%1</translation>
    </message>
    <message>
        <source>raw baseline: cannot connect to %1: %2</source>
        <translation>raw 基准：无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>raw baseline: write failed: %1</source>
        <translation>raw 基准：写入失败：%1</translation>
    </message>
    <message>
        <source>raw baseline: no reply within %1 ms</source>
        <translation>raw 基准：%1 毫秒内没有应答</translation>
    </message>
    <message>
        <source>raw baseline: read failed: %1</source>
        <translation>raw 基准：读取失败：%1</translation>
    </message>
</context>
<context>
    <name>redlock::cli::RunCommand</name>
    <message>
        <source>Exit codes:
  the command&apos;s own exit status, or 128+N if it died of signal N (as shells report it)
  1    the lock was not acquired within --wait (the command did not run)
  2    usage or configuration error (nothing was sent to any node)
  3    no quorum reachable: too many nodes timed out or refused the connection
  8    the lock was lost while the command ran (whatever the command&apos;s own status)
  126  the command was found but could not be started
  127  the command was not found
An acquired lock is released when the command ends, whatever the exit code.
</source>
        <translation>退出码：
  命令自身的退出状态，或在命令死于信号 N 时为 128+N（与 shell 的报告方式相同）
  1    未能在 --wait 内获取锁（命令未运行）
  2    用法或配置错误（未向任何节点发送内容）
  3    无法达到法定人数：过多节点超时或拒绝连接
  8    命令运行期间锁丢失（无论命令自身的状态如何）
  126  找到了命令但无法启动
  127  找不到命令
无论退出码是什么，命令结束时都会释放已获取的锁。
</translation>
    </message>
    <message>
        <source>%1: command not found</source>
        <translation>%1：找不到命令</translation>
    </message>
    <message>
        <source>%1: not an executable file</source>
        <translation>%1：不是可执行文件</translation>
    </message>
    <message>
        <source>Time to live in milliseconds (default 10000). The lock is extended by this much each time a third of it is left, for as long as the command runs.</source>
        <translation>生存时间，单位毫秒（默认 10000）。只要命令仍在运行，每当剩余三分之一时，锁就会再续期这么长时间。</translation>
    </message>
    <message>
        <source>MS</source>
        <translation>MS</translation>
    </message>
    <message>
        <source>Keep trying to acquire for up to MS milliseconds (default 0: one attempt).</source>
        <translation>持续尝试获取锁，最长 MS 毫秒（默认 0：只尝试一次）。</translation>
    </message>
    <message>
        <source>Base wait between attempts in ms (default 200).</source>
        <translation>两次尝试之间的基础等待时间，单位毫秒（默认 200）。</translation>
    </message>
    <message>
        <source>Random extra wait of 0..MS between attempts (default 100).</source>
        <translation>两次尝试之间额外的随机等待 0..MS 毫秒（默认 100）。</translation>
    </message>
    <message>
        <source>Clock drift allowance: drift = ttl * F + 2 ms (default 0.01).</source>
        <translation>时钟漂移余量：漂移 = ttl * F + 2 毫秒（默认 0.01）。</translation>
    </message>
    <message>
        <source>F</source>
        <translation>F</translation>
    </message>
    <message>
        <source>Per-node timeout in milliseconds, small against the TTL (default 50).</source>
        <translation>每个节点的超时，单位毫秒，应远小于 TTL（默认 50）。</translation>
    </message>
    <message>
        <source>Name written into the lock token and CLIENT SETNAME (default: redlock-run).</source>
        <translation>写入锁令牌和 CLIENT SETNAME 的名称（默认：redlock-run）。</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>NAME</translation>
    </message>
    <message>
        <source>Also issue a fencing token, passed to the command as REDLOCK_FENCING_TOKEN.</source>
        <translation>同时签发一个防护令牌，以 REDLOCK_FENCING_TOKEN 传给命令。</translation>
    </message>
    <message>
        <source>What the command gets when the lock is lost: term (SIGTERM, the default), kill (SIGKILL) or none. Either way redlock waits for it to end and exits 8.</source>
        <translation>锁丢失时命令会收到什么：term（SIGTERM，默认）、kill（SIGKILL）或 none。无论哪种，redlock 都会等待命令结束，然后以退出码 8 退出。</translation>
    </message>
    <message>
        <source>ACTION</source>
        <translation>ACTION</translation>
    </message>
    <message>
        <source>The lock key.</source>
        <translation>锁键。</translation>
    </message>
    <message>
        <source>KEY</source>
        <translation>KEY</translation>
    </message>
    <message>
        <source>The command to run while holding the lock.</source>
        <translation>持有锁期间要运行的命令。</translation>
    </message>
    <message>
        <source>-- COMMAND [ARG...]</source>
        <translation>-- COMMAND [ARG...]</translation>
    </message>
    <message>
        <source>run [options] --nodes LIST KEY -- COMMAND [ARG...]</source>
        <translation>run [选项] --nodes LIST KEY -- COMMAND [ARG...]</translation>
    </message>
    <message>
        <source>Run a command while holding a Redlock lock, like flock(1) across machines: acquire KEY (trying for up to --wait ms), start the command with REDLOCK_TOKEN (and, with --fencing, REDLOCK_FENCING_TOKEN) in its environment, extend the lock automatically while it runs, and release it when the command ends.

If an extension fails (the nodes lost the key, or too many cannot be reached) the lock counts as lost a safety margin (a tenth of the TTL) before its validity ends: the command gets --on-lost&apos;s signal, so that it can stop touching the resource before another holder may take it, and redlock exits 8 once it has ended. SIGINT, SIGTERM and SIGHUP sent to redlock are passed on to the command (Ctrl+C at the terminal reaches it directly). stdin, stdout and stderr are the command&apos;s; redlock&apos;s own messages go to stderr.</source>
        <translation>在持有 Redlock 锁期间运行一个命令，就像跨机器的 flock(1)：获取 KEY（最多尝试 --wait 毫秒），在环境变量中带上 REDLOCK_TOKEN（使用 --fencing 时还有 REDLOCK_FENCING_TOKEN）启动命令，在命令运行期间自动续期该锁，并在命令结束时释放它。

如果续期失败（节点丢失了该键，或过多节点无法访问），锁会在其有效期结束前一个安全余量（TTL 的十分之一）时被视为丢失：命令会收到 --on-lost 指定的信号，以便在其他持有者可能拿到锁之前停止访问该资源，命令结束后 redlock 以退出码 8 退出。发送给 redlock 的 SIGINT、SIGTERM 和 SIGHUP 会转发给命令（在终端按 Ctrl+C 会直接到达命令）。stdin、stdout 和 stderr 归命令使用；redlock 自身的消息写到 stderr。</translation>
    </message>
    <message>
        <source>give the command after &quot;--&quot;: redlock run [options] KEY -- COMMAND</source>
        <translation>请在“--”之后给出命令：redlock run [选项] KEY -- COMMAND</translation>
    </message>
    <message>
        <source>name exactly one lock key before &quot;--&quot;</source>
        <translation>请在“--”之前只指定一个锁键</translation>
    </message>
    <message>
        <source>a resource name cannot be empty</source>
        <translation>资源名不能为空</translation>
    </message>
    <message>
        <source>no command given after &quot;--&quot;</source>
        <translation>“--”之后没有给出命令</translation>
    </message>
    <message>
        <source>--on-lost takes term, kill or none, not &quot;%1&quot;</source>
        <translation>--on-lost 只接受 term、kill 或 none，而不是“%1”</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>configuration error: %1</source>
        <translation>配置错误：%1</translation>
    </message>
    <message>
        <source>stopped by signal %1 before the command started</source>
        <translation>在命令启动之前被信号 %1 停止</translation>
    </message>
    <message>
        <source>not acquired %1: %2</source>
        <translation>未获取 %1：%2</translation>
    </message>
    <message>
        <source>the client stopped</source>
        <translation>客户端已停止</translation>
    </message>
    <message>
        <source>sending SIGTERM to the command</source>
        <translation>正在向命令发送 SIGTERM</translation>
    </message>
    <message>
        <source>sending SIGKILL to the command</source>
        <translation>正在向命令发送 SIGKILL</translation>
    </message>
    <message>
        <source>the command goes on (--on-lost none)</source>
        <translation>命令继续运行（--on-lost none）</translation>
    </message>
    <message>
        <source>the lock on %1 is lost (%2): %3</source>
        <translation>%1 上的锁已丢失（%2）：%3</translation>
    </message>
    <message>
        <source>the lock on %1 was acquired with too little validity left to run the command</source>
        <translation>获取 %1 上的锁时剩余有效期太短，无法运行命令</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>warning: the lock on %1 was not released on a quorum (%2); it expires with its TTL</source>
        <translation>警告：%1 上的锁未在法定人数的节点上释放（%2）；它将随其 TTL 过期</translation>
    </message>
</context>
<context>
    <name>redlock::rules</name>
    <message>
        <source>the drift factor must be at least 0 and below %1, not %2</source>
        <translation>时钟漂移系数必须不小于 0 且小于 %1，而不是 %2</translation>
    </message>
    <message numerus="yes">
        <source>with %n node(s) the quorum cannot survive the loss of any node: Redlock needs at least 3 independent masters</source>
        <translation>
            <numerusform>只有 %n 个节点时，丢失任何一个节点都会失去法定人数：Redlock 至少需要 3 个相互独立的主节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>with %n nodes the quorum tolerates no more failures than with one node fewer: use an odd number</source>
        <translation>
            <numerusform>%n 个节点时，法定人数能容忍的故障数并不比少一个节点时更多：请使用奇数个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 nodes listed: at most %2 are accepted</source>
        <translation>列出了 %1 个节点：最多接受 %2 个</translation>
    </message>
</context>
</TS>
